#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A decoded manifest's entry lists kept where they are, in the manifest's bytes: one row of
/// places per entry, no `String` made for any of them until someone asks for that entry.
///
/// Opening a package checks every entry the manifest lists, and for a package of two thousand
/// modules making a name, a path and a hash `String` for each (and freeing them at exit) was
/// most of what a large package added to start-up. `ManifestDecoder` builds a table only for
/// a manifest in the writer's layout (`CanonicalManifest`) whose every entry is ASCII and
/// passes the rules below in bytes, with each list sorted by path in byte order; for anything
/// else it gives up and decodes `String`s as before, which also words every problem. So a table
/// holds exactly the entries the `String` decoder would have accepted, and `manifest()` gives
/// the very `Manifest` it would have returned.
struct ManifestTable: Sendable {
    typealias Entry = CanonicalManifest.Entry

    /// The manifest's bytes, which every entry points into.
    let bytes: [UInt8]
    let modules: [Entry]
    let resources: [Entry]

    /// Checks every row of `canonical` in bytes; nil when any row is outside what this table
    /// takes (non-ASCII, a rule broken, out of order, a limit passed), so the caller decodes
    /// it the long way and reports what is wrong. `startModule` must then be among the modules.
    init?(_ canonical: CanonicalManifest, limits: PackageLimits, startModule: ModuleName?) {
        guard canonical.formatVersion >= 2,
            canonical.modules.count + canonical.resources.count + canonical.scripts.count + 1 <= limits.maxEntries
        else { return nil }
        let found: Bool? = canonical.bytes.withUnsafeBufferPointer { bytes in
            var start = startModule?.rawValue ?? ""
            return start.withUTF8 { start in
                guard startModule == nil || !start.contains(where: { $0 >= 0x80 }) else { return nil }
                /// Whether every row is ASCII, within `limit`, follows `rule`, has a hash and
                /// comes strictly after the one before it (so no path is listed twice).
                func rowsHold(_ rows: [Entry], limit: Int64, _ rule: (Entry, UnsafeBufferPointer<UInt8>) -> Bool)
                    -> Bool
                {
                    var previous: Range<Int>?
                    for entry in rows {
                        guard entry.isASCII, entry.size <= limit, rule(entry, bytes),
                            Self.isSHA256(entry.sha256, in: bytes), Self.follows(previous, entry.path.range, in: bytes)
                        else { return false }
                        previous = entry.path.range
                    }
                    return true
                }
                guard rowsHold(canonical.modules, limit: limits.maxModuleBytes, Self.isModule),
                    rowsHold(canonical.resources, limit: limits.maxResourceBytes, Self.isResource),
                    canonical.modules.reduce(Int64(0), { $0 + $1.size }) <= limits.maxTotalModuleBytes,
                    Self.noModuleTwice(canonical.modules, in: bytes)
                else { return nil }
                return startModule == nil || canonical.modules.contains { Self.equal($0.name.range, start, in: bytes) }
            }
        }
        // A missing start module is a problem the long way words.
        guard found == true else { return nil }
        bytes = canonical.bytes
        modules = canonical.modules
        resources = canonical.resources
    }

    // MARK: Serving entries

    func module(at position: Int) -> Manifest.Module {
        let entry = modules[position]
        return Manifest.Module(
            name: ModuleName(checked: text(entry.name)), path: text(entry.path), size: entry.size,
            sha256: text(entry.sha256))
    }

    func resource(at position: Int) -> Manifest.Resource {
        let entry = resources[position]
        return Manifest.Resource(
            key: ResourceKey(checkedName: text(entry.name), type: text(entry.type)), path: text(entry.path),
            size: entry.size, sha256: text(entry.sha256))
    }

    /// Where the module or resource stored at `path` is in its list: a binary search by bytes.
    func position(ofPath path: String, resources: Bool) -> Int? {
        let list = resources ? self.resources : modules
        var path = path
        return path.withUTF8 { path in
            bytes.withUnsafeBufferPointer { bytes in
                var low = 0
                var high = list.count
                while low < high {
                    let middle = (low + high) / 2
                    let order = Self.compare(UnsafeBufferPointer(rebasing: bytes[list[middle].path.range]), path)
                    if order == 0 { return middle }
                    if order < 0 { low = middle + 1 } else { high = middle }
                }
                return nil
            }
        }
    }

    /// Whether the entry at `position` (modules, then resources) is stored at exactly `name`.
    func path(at position: Int, is name: UnsafeBufferPointer<UInt8>) -> Bool {
        let entry = position < modules.count ? modules[position] : resources[position - modules.count]
        return bytes.withUnsafeBufferPointer { bytes in
            Self.compare(UnsafeBufferPointer(rebasing: bytes[entry.path.range]), name) == 0
        }
    }

    /// Every entry, as `Manifest.decode` returns them.
    func lists() -> (modules: [Manifest.Module], resources: [Manifest.Resource]) {
        (modules.indices.map(module(at:)), resources.indices.map(resource(at:)))
    }

    private func text(_ span: CanonicalManifest.Span) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[span.range]), as: UTF8.self) }
    }

    // MARK: The rules, in bytes

    /// A module name whose every part is non-empty and made of `ModuleName.isNameByte`s, stored
    /// at its own path (`modules/a/b.lua` or `modules/a/b/init.lua`) of at most 1,024 bytes:
    /// what `ModuleName` and `PackagePath.isModulePath` accept, for ASCII.
    private static func isModule(_ entry: Entry, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let name = UnsafeBufferPointer(rebasing: bytes[entry.name.range])
        let path = UnsafeBufferPointer(rebasing: bytes[entry.path.range])
        guard !name.isEmpty, path.count <= 1024, path.count > 8 + name.count,
            memcmp(path.baseAddress!, "modules/", 8) == 0
        else { return false }
        var partLength = 0
        for (offset, byte) in name.enumerated() {
            if byte == UInt8(ascii: ".") {
                guard partLength > 0, path[8 + offset] == UInt8(ascii: "/") else { return false }
                partLength = 0
            } else {
                guard ModuleName.isNameByte(byte), path[8 + offset] == byte else { return false }
                partLength += 1
            }
        }
        guard partLength > 0 else { return false }
        let rest = path.baseAddress! + 8 + name.count
        switch path.count - 8 - name.count {
        case 4: return memcmp(rest, ".lua", 4) == 0
        case 9: return memcmp(rest, "/init.lua", 9) == 0
        default: return false
        }
    }

    /// A resource key `ResourceKey` accepts, stored at `resources/<name>.<type>` (or
    /// `resources/<name>` without a type) of at most 1,024 bytes. Every key byte is printable
    /// ASCII but the backslash: the scanner refused control characters and DEL.
    private static func isResource(_ entry: Entry, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let name = UnsafeBufferPointer(rebasing: bytes[entry.name.range])
        let type = UnsafeBufferPointer(rebasing: bytes[entry.type.range])
        let path = UnsafeBufferPointer(rebasing: bytes[entry.path.range])
        let expectedCount = 10 + name.count + (type.isEmpty ? 0 : 1 + type.count)
        guard !name.isEmpty, name[0] != UInt8(ascii: "/"), path.count == expectedCount, path.count <= 1024,
            memcmp(path.baseAddress!, "resources/", 10) == 0,
            memcmp(path.baseAddress! + 10, name.baseAddress!, name.count) == 0
        else { return false }
        var partLength = 0
        var dots = 0
        for byte in name {
            if byte == UInt8(ascii: "\\") { return false }
            if byte == UInt8(ascii: "/") {
                guard partLength > dots || (partLength > 2) else { return false }
                partLength = 0
                dots = 0
            } else {
                partLength += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        guard partLength > dots || partLength > 2 else { return false }
        if type.isEmpty { return true }
        for byte in type
        where byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ".") {
            return false
        }
        return path[10 + name.count] == UInt8(ascii: ".")
            && memcmp(path.baseAddress! + 11 + name.count, type.baseAddress!, type.count) == 0
    }

    /// 64 lowercase hex digits (`ManifestRules`, as the decoder checks it).
    private static func isSHA256(_ span: CanonicalManifest.Span, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        ManifestRules.isSHA256(bytes[span.range])
    }

    /// Whether `path` comes strictly after `previous` in byte order (no path twice).
    private static func follows(_ previous: Range<Int>?, _ path: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        guard let previous else { return true }
        return compare(UnsafeBufferPointer(rebasing: bytes[previous]), UnsafeBufferPointer(rebasing: bytes[path])) < 0
    }

    /// Whether no module is stored both at `a/b.lua` and `a/b/init.lua` (the list is sorted).
    private static func noModuleTwice(_ modules: [Entry], in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Longer than `modules/`, the name and `.lua`: stored as `…/init.lua`.
        ManifestRules.noModuleTwice(
            sortedPaths: modules.lazy.map { bytes[$0.path.range] },
            initModules: modules.indices.lazy.filter { modules[$0].path.count > modules[$0].name.count + 12 })
    }

    private static func equal(
        _ range: Range<Int>, _ other: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>
    )
        -> Bool
    {
        compare(UnsafeBufferPointer(rebasing: bytes[range]), other) == 0
    }

    /// Byte order: negative, zero or positive as `lhs` sorts before, with or after `rhs`.
    static func compare(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(lhs.count, rhs.count)
        if common > 0 {
            let order = memcmp(lhs.baseAddress!, rhs.baseAddress!, common)
            if order != 0 { return Int(order) }
        }
        return lhs.count - rhs.count
    }
}
