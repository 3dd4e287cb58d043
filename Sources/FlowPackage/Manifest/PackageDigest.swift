import FlowJSON

extension Manifest {
    /// The package digest (format 2): the lowercase hex SHA-256 of `digestText`. It identifies
    /// the package: two packages with the same digest have the same identifier, name, version,
    /// start module, Lua version, external modules, runtime version, modules and resources, byte for byte. It leaves out only the
    /// generator (the flowpkg that wrote the package), so the same project exported by two
    /// flowpkg versions has one digest. This is what a signature over a package signs.
    public var packageDigest: String {
        SHA256.hex(of: digestText)
    }

    /// The canonical text `packageDigest` hashes: UTF-8, one field per line, each line ending in
    /// a line feed, strings written as JSON string literals (so no value can fake a line):
    ///
    ///     flowpkg-package 2
    ///     identifier "com.example.app"
    ///     name "App"
    ///     version "1.0.0"
    ///     startModule "main"                    (null when there is none)
    ///     luaVersion "5.4"
    ///     externalModule "lfs"                   (one per entry, in the manifest's order)
    ///     runtimeVersion "2"                     (only when the manifest has one)
    ///     module "main" "modules/main.lua" 120 <sha256>
    ///     resource "img/logo" "png" "resources/img/logo.png" 2048 <sha256>
    ///     script "scripts/muc/password.lib.lua" 310 <sha256>   (only when there are scripts)
    ///
    /// `module` lines (name, package path, size, SHA-256) then `resource` lines (name, type,
    /// package path, size, SHA-256), each group sorted by package path in UTF-8 byte order.
    /// The first line's number is the format version. A manifest field added later that changes
    /// what a host runs belongs in this text.
    public var digestText: [UInt8] {
        var text = digestHeader()
        text.bytes.reserveCapacity(text.bytes.count + (modules.count + resources.count) * 160)
        for module in Self.sortedByPath(modules, { $0.path }) {
            text.word("module")
            text.quoted(module.name.rawValue)
            text.quoted(module.path)
            text.line(size: module.size, module.sha256)
        }
        for resource in Self.sortedByPath(resources, { $0.path }) {
            text.word("resource")
            text.quoted(resource.key.name)
            text.quoted(resource.key.type)
            text.quoted(resource.path)
            text.line(size: resource.size, resource.sha256)
        }
        text.bytes += scriptLines().bytes
        return text.bytes
    }

    /// `packageDigest`'s 32 bytes (not yet hex) for a manifest whose `module` and `resource`
    /// lines are copied from its bytes, already sorted (by the manifest reader): the header
    /// lines come from `header` (whose entry lists are not read), then `entryLines`' lines.
    static func packageDigestBytes(header: Manifest, entryLines: CanonicalManifest) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: header.digestHeader().bytes)
        entryLines.forEachEntryLineBlock { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        if !header.scripts.isEmpty { hasher.update(data: header.scriptLines().bytes) }
        return hasher.finalize()
    }

    /// The digest text's `script` lines (package path, size, SHA-256), sorted by path; none
    /// for a package without scripts, whose digest is then what it was before scripts existed.
    private func scriptLines() -> DigestText {
        var text = DigestText()
        for script in Self.sortedByPath(scripts, { $0.path }) {
            text.word("script")
            text.quoted(script.path)
            text.line(size: script.size, script.sha256)
        }
        return text
    }

    /// The digest text's lines before the entries.
    private func digestHeader() -> DigestText {
        var text = DigestText()
        // Room for the usual header at once (a launch makes this text to check the digest).
        text.bytes.reserveCapacity(
            128 + identifier.rawValue.utf8.count + name.utf8.count + version.utf8.count
                + externalModules.reduce(0) { $0 + $1.utf8.count + 20 })
        text.word("flowpkg-package")
        text.number(Int64(formatVersion))
        text.bytes.append(UInt8(ascii: "\n"))
        text.line("identifier", quoted: identifier.rawValue)
        text.line("name", quoted: name)
        text.line("version", quoted: version)
        if let startModule {
            text.line("startModule", quoted: startModule.rawValue)
        } else {
            text.line("startModule", "null")
        }
        text.line("luaVersion", quoted: luaVersion)
        for entry in externalModules { text.line("externalModule", quoted: entry) }
        if let runtimeVersion { text.line("runtimeVersion", quoted: runtimeVersion) }
        return text
    }

    /// Manifests list their entries sorted already; sorting is then skipped.
    private static func sortedByPath<T>(_ items: [T], _ path: (T) -> String) -> [T] {
        for index in items.indices.dropFirst() where PackagePath.precedes(path(items[index]), path(items[index - 1])) {
            return items.sorted { PackagePath.precedes(path($0), path($1)) }
        }
        return items
    }

    /// The format 1 digest, which packages written before format 2 carry: the lowercase hex
    /// SHA-256 of one line per entry, `path:sha256\n`, sorted by the paths' UTF-8 bytes. It
    /// covers the entries only, not the identifier or the version. An empty package's is the
    /// SHA-256 of no bytes.
    public static func entryListDigest(of entries: [(path: String, sha256: String)]) -> String {
        let sorted = entries.sorted(by: { PackagePath.precedes($0.path, $1.path) })
        var lines: [UInt8] = []
        for entry in sorted {
            lines.append(contentsOf: entry.path.utf8)
            lines.append(UInt8(ascii: ":"))
            lines.append(contentsOf: entry.sha256.utf8)
            lines.append(UInt8(ascii: "\n"))
        }
        return SHA256.hex(of: lines)
    }
}

/// Builds the digest text in one buffer: a package of thousands of entries is hashed once,
/// with no string built per entry.
private struct DigestText {
    var bytes: [UInt8] = []

    /// `text`'s UTF-8 bytes, copied as one block.
    mutating func append(_ text: String) {
        let copied: Void? = text.utf8.withContiguousStorageIfAvailable { bytes.append(contentsOf: $0) }
        if copied == nil { bytes += text.utf8 }
    }

    /// `word` and a space.
    mutating func word(_ word: String) {
        append(word)
        bytes.append(UInt8(ascii: " "))
    }

    /// `value` as a JSON string literal, and a space.
    mutating func quoted(_ value: String) {
        // Names and paths almost never need escaping: copy their bytes straight in.
        if Self.needsNoEscape(value) {
            bytes.append(UInt8(ascii: "\""))
            append(value)
            bytes.append(UInt8(ascii: "\""))
        } else {
            append(JSONText.quoted(value))
        }
        bytes.append(UInt8(ascii: " "))
    }

    /// Whether `value` holds no byte a JSON string literal escapes (nor DEL, which `JSONText`
    /// escapes too).
    private static func needsNoEscape(_ value: String) -> Bool {
        let plain = value.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes
            where byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return false
            }
            return true
        }
        return plain ?? false
    }

    /// `size` in decimal, a space, `second` and a line feed.
    mutating func line(size: Int64, _ second: String) {
        number(size)
        bytes.append(UInt8(ascii: " "))
        append(second)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// `value` in decimal, as `"\(value)"` writes it.
    mutating func number(_ value: Int64) {
        guard value >= 0 else { return append("\(value)") }
        // The digits are written lowest first, then turned around in place.
        let start = bytes.count
        var rest = value
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        bytes[start...].reverse()
    }

    /// `first`, a space, `second` and a line feed.
    mutating func line(_ first: String, _ second: String) {
        append(first)
        bytes.append(UInt8(ascii: " "))
        append(second)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// `key`, a space, `value` as a JSON string literal and a line feed.
    mutating func line(_ key: String, quoted value: String) {
        word(key)
        quoted(value)
        bytes[bytes.count - 1] = UInt8(ascii: "\n")
    }
}
