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

/// `manifest.json` read straight from its bytes when it is laid out exactly as
/// `Manifest.jsonBytes()` writes it: no JSON tree, no lookup of members by key, and the
/// digest text's `module` and `resource` lines copied from the manifest's own bytes.
///
/// Opening a package decodes its manifest before any Lua runs, and for a package of two
/// thousand modules the general JSON parser and decoder were most of a start-up. Any other
/// layout (other whitespace or key order, an unknown or missing key, a value of another type,
/// an escape or a byte the writer would have escaped, a number with a sign or leading zero,
/// bytes after the end) makes the reader give up (nil), and the manifest goes through
/// `JSONParser` and the decoder, which accept any JSON and word every problem. Only the
/// layout is checked here; `ManifestDecoder` checks the rules for both readers. The entry rows
/// stay in the bytes as `Span`s: `ManifestTable` checks and serves them without a `String` each.
struct CanonicalManifest: Sendable {
    /// Where a string's content (between its quotes) or a number's digits are in the bytes.
    struct Span: Sendable {
        var start: Int32
        var count: Int32

        var range: Range<Int> { Int(start)..<Int(start) + Int(count) }
        /// The string with its quotes: how the digest text quotes it too (nothing in it needed
        /// an escape).
        var quoted: Range<Int> { Int(start) - 1..<Int(start) + Int(count) + 1 }
    }

    /// One row of the `modules` or `resources` list, as places in the bytes: no `String` is
    /// made for a row until someone asks for it.
    struct Entry: Sendable {
        var name: Span
        /// Empty for a module.
        var type: Span
        var path: Span
        var sizeDigits: Span
        var size: Int64
        /// The 64 characters of the hash, without quotes (whatever they are: checked later).
        var sha256: Span
        /// Whether name, type and path are ASCII.
        var isASCII: Bool
    }

    /// The manifest's bytes, which every `Span` points into.
    let bytes: [UInt8]
    var formatVersion: Int64 = 0
    var identifier = ""
    var name = ""
    var version = ""
    /// Nil when the manifest has `null`.
    var startModule: String?
    var luaVersion = ""
    var generator = ""
    var externalModules: [String] = []
    var runtimeVersion: String?
    var modules: [Entry] = []
    var resources: [Entry] = []
    /// The optional `scripts` list, as strings: scripts are few, and never looked up in bulk.
    var scripts: [(path: String, size: Int64, sha256: String)] = []
    var digest = ""

    init?(_ bytes: [UInt8]) {
        // Spans hold 32-bit offsets; a manifest that large (far over any limit) is left to the parser.
        guard bytes.count < Int(Int32.max) else { return nil }
        var read = CanonicalManifest(bytes: bytes)
        let complete = bytes.withUnsafeBufferPointer { buffer in
            var scanner = LayoutScanner(bytes: buffer)
            return scanner.manifest(into: &read)
        }
        guard complete else { return nil }
        self = read
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    /// The text at `span`, which the scanner found to be valid UTF-8 with nothing escaped.
    func text(_ span: Span) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[span.range]), as: UTF8.self) }
    }

    /// The digest text's `module` and `resource` lines (see `Manifest.digestText`), the quoted
    /// strings exactly as written, in the manifest's order, handed to `body` a block at a time.
    func forEachEntryLineBlock(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        bytes.withUnsafeBufferPointer { bytes in
            var block: [UInt8] = []
            // The lines are shorter than the JSON they come from: a small manifest's fit in a
            // block of its own size, with no 32 KiB made at each launch.
            block.reserveCapacity(min(32 * 1024, bytes.count + 64))
            func copy(_ range: Range<Int>) { block.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range])) }
            func lines(_ list: [Entry], resources: Bool) {
                for entry in list {
                    block.append(contentsOf: resources ? "resource ".utf8 : "module ".utf8)
                    copy(entry.name.quoted)
                    block.append(UInt8(ascii: " "))
                    if resources {
                        copy(entry.type.quoted)
                        block.append(UInt8(ascii: " "))
                    }
                    copy(entry.path.quoted)
                    block.append(UInt8(ascii: " "))
                    copy(entry.sizeDigits.range)
                    block.append(UInt8(ascii: " "))
                    copy(entry.sha256.range)
                    block.append(UInt8(ascii: "\n"))
                    if block.count >= 31 * 1024 {
                        block.withUnsafeBufferPointer(body)
                        block.removeAll(keepingCapacity: true)
                    }
                }
            }
            lines(modules, resources: false)
            lines(resources, resources: true)
            if !block.isEmpty { block.withUnsafeBufferPointer(body) }
        }
    }
}

/// Walks the bytes of the writer's layout; every method returns nil (or false) at the first
/// byte that differs from it.
private struct LayoutScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// Whether every string of the entry row being read is ASCII so far.
    var lastStringsASCII = true

    mutating func manifest(into result: inout CanonicalManifest) -> Bool {
        guard literal("{\n  \"formatVersion\": "), let formatVersion = integer(), literal(",\n"),
            let identifier = member("identifier"), let name = member("name"), let version = member("version"),
            literal("  \"startModule\": ")
        else { return false }
        result.formatVersion = formatVersion
        result.identifier = identifier
        result.name = name
        result.version = version
        if literal("null") {
            result.startModule = nil
        } else {
            guard let start = string() else { return false }
            result.startModule = text(start)
        }
        guard literal(",\n"), let luaVersion = member("luaVersion"), let generator = member("generator") else {
            return false
        }
        result.luaVersion = luaVersion
        result.generator = generator
        if literal("  \"externalModules\": [") {
            // Written only when there are some: `["a", "b"]`.
            repeat {
                guard let entry = string() else { return false }
                result.externalModules.append(text(entry))
            } while literal(", ")
            guard literal("],\n") else { return false }
        }
        if literal("  \"runtimeVersion\": ") {
            guard let runtimeVersion = string(), literal(",\n") else { return false }
            result.runtimeVersion = text(runtimeVersion)
        }
        // Room for every row at once (a sound row is over 100 bytes): the list is not copied
        // as it grows, and reserved pages that no row reaches are never touched.
        result.modules.reserveCapacity((bytes.count - index) / 100)
        guard literal("  \"modules\": ["), entries(into: &result, resources: false),
            literal("  \"resources\": ["), entries(into: &result, resources: true), scripts(into: &result),
            literal("  \"digest\": "), let digest = string(), literal("\n}\n"), index == bytes.count
        else { return false }
        result.digest = text(digest)
        return true
    }

    /// `  "key": "value",\n`
    private mutating func member(_ key: StaticString) -> String? {
        guard literal("  \""), literal(key), literal("\": "), let value = string(), literal(",\n") else { return nil }
        return text(value)
    }

    /// The entry lists' rows up to and including `],\n`, each kept as places in the bytes.
    private mutating func entries(into result: inout CanonicalManifest, resources: Bool) -> Bool {
        if literal("],\n") { return true }
        repeat {
            // Only this row's strings count (the header's may well not be ASCII).
            lastStringsASCII = true
            guard literal("\n    {\"name\": "), let name = string() else { return false }
            var type = CanonicalManifest.Span(start: 0, count: 0)
            if resources {
                guard literal(", \"type\": "), let read = string() else { return false }
                type = read
            }
            guard literal(", \"path\": "), let path = string(), literal(", \"size\": ") else { return false }
            let sizeStart = index
            guard let size = integer() else { return false }
            let sizeDigits = span(sizeStart..<index)
            guard literal(", \"sha256\": "), let sha = string(), literal("}") else { return false }
            let entry = CanonicalManifest.Entry(
                name: name, type: type, path: path, sizeDigits: sizeDigits, size: size, sha256: sha,
                isASCII: lastStringsASCII)
            if resources { result.resources.append(entry) } else { result.modules.append(entry) }
        } while literal(",")
        return literal("\n  ],\n")
    }

    /// The optional `scripts` list up to and including `],\n`, written only when it has rows:
    /// `{"path": …, "size": …, "sha256": …}` each.
    private mutating func scripts(into result: inout CanonicalManifest) -> Bool {
        guard literal("  \"scripts\": [") else { return true }
        repeat {
            guard literal("\n    {\"path\": "), let path = string(), literal(", \"size\": "), let size = integer(),
                literal(", \"sha256\": "), let sha = string(), literal("}")
            else { return false }
            result.scripts.append((text(path), size, text(sha)))
        } while literal(",")
        return literal("\n  ],\n")
    }

    private func span(_ range: Range<Int>) -> CanonicalManifest.Span {
        CanonicalManifest.Span(start: Int32(range.lowerBound), count: Int32(range.count))
    }

    private func text(_ span: CanonicalManifest.Span) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[span.range]), as: UTF8.self)
    }

    /// Whether `text` comes next; it is skipped when it does.
    private mutating func literal(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard bytes.count - index >= count, memcmp(bytes.baseAddress! + index, text.utf8Start, count) == 0 else {
            return false
        }
        index += count
        return true
    }

    /// A string with nothing escaped and no byte the writer escapes (control characters, DEL),
    /// and valid UTF-8: where its content is. Clears `lastStringsASCII` when it is not ASCII.
    private mutating func string() -> CanonicalManifest.Span? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let start = index + 1
        // The closing quote found with `memchr`, then the bytes before it checked in one
        // branch-free pass: a backslash (an escape), a control character or DEL refuse the
        // layout, a byte of 0x80 or more means the string is not ASCII.
        guard start < bytes.count,
            let quote = memchr(bytes.baseAddress! + start, Int32(UInt8(ascii: "\"")), bytes.count - start)
        else { return nil }
        let end = start + (UnsafeRawPointer(quote) - UnsafeRawPointer(bytes.baseAddress! + start))
        var refused: UInt8 = 0
        var high: UInt8 = 0
        for byte in UnsafeBufferPointer(rebasing: bytes[start..<end]) {
            refused |= (byte < 0x20 ? 1 : 0) | (byte == 0x7F ? 1 : 0) | (byte == UInt8(ascii: "\\") ? 1 : 0)
            high |= byte
        }
        if refused != 0 { return nil }
        let ascii = high < 0x80
        guard end < bytes.count else { return nil }
        // ASCII needs no validation; anything else must be valid UTF-8, as the parser requires.
        if !ascii {
            guard String(validating: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) != nil else {
                return nil
            }
            lastStringsASCII = false
        }
        index = end + 1
        return span(start..<end)
    }

    /// A non-negative integer as the writer prints one: no sign, no leading zero, at most 18
    /// digits (so it fits an `Int64`).
    private mutating func integer() -> Int64? {
        var value: Int64 = 0
        var digits = 0
        while index + digits < bytes.count, (48...57).contains(bytes[index + digits]) {
            // 18 digits always fit in an Int64; a 19th could overflow, so more than 18 is left to
            // the parser (which words the problem) before anything is multiplied.
            if digits == 18 { return nil }
            value = value * 10 + Int64(bytes[index + digits] - 48)
            digits += 1
        }
        guard digits > 0, digits == 1 || bytes[index] != UInt8(ascii: "0") else { return nil }
        index += digits
        return value
    }
}
