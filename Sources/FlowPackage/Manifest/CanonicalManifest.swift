import Foundation

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
/// layout is checked here; `ManifestDecoder` checks the rules for both readers.
struct CanonicalManifest {
    typealias Module = (name: String, path: String, size: Int64, sha256: String)
    typealias Resource = (name: String, type: String, path: String, size: Int64, sha256: String)

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
    var modules: [Module] = []
    var resources: [Resource] = []
    var digest = ""
    /// `module "name" "path" size sha256` and `resource "name" "type" "path" size sha256`
    /// lines, in the manifest's order: the digest text's entry lines (see
    /// `Manifest.digestText`) when the lists are sorted by path.
    var entryLines: [UInt8] = []

    init?(_ bytes: [UInt8]) {
        let read: CanonicalManifest? = bytes.withUnsafeBufferPointer { buffer in
            var scanner = LayoutScanner(bytes: buffer)
            return scanner.manifest()
        }
        guard let read else { return nil }
        self = read
    }

    fileprivate init() {}
}

/// Walks the bytes of the writer's layout; every method returns nil (or false) at the first
/// byte that differs from it.
private struct LayoutScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    mutating func manifest() -> CanonicalManifest? {
        var result = CanonicalManifest()
        guard literal("{\n  \"formatVersion\": "), let formatVersion = integer(), literal(",\n"),
            let identifier = member("identifier"), let name = member("name"), let version = member("version"),
            literal("  \"startModule\": ")
        else { return nil }
        result.formatVersion = formatVersion
        result.identifier = identifier
        result.name = name
        result.version = version
        if literal("null") {
            result.startModule = nil
        } else {
            guard let start = string() else { return nil }
            result.startModule = start.text
        }
        guard literal(",\n"), let luaVersion = member("luaVersion"), let generator = member("generator") else {
            return nil
        }
        result.luaVersion = luaVersion
        result.generator = generator
        if literal("  \"externalModules\": [") {
            // Written only when there are some: `["a", "b"]`.
            repeat {
                guard let entry = string() else { return nil }
                result.externalModules.append(entry.text)
            } while literal(", ")
            guard literal("],\n") else { return nil }
        }
        if literal("  \"runtimeVersion\": ") {
            guard let runtimeVersion = string(), literal(",\n") else { return nil }
            result.runtimeVersion = runtimeVersion.text
        }
        result.entryLines.reserveCapacity(bytes.count)
        guard literal("  \"modules\": ["), entries(into: &result, resources: false),
            literal("  \"resources\": ["), entries(into: &result, resources: true),
            literal("  \"digest\": "), let digest = string(), literal("\n}\n"), index == bytes.count
        else { return nil }
        result.digest = digest.text
        return result
    }

    /// `  "key": "value",\n`
    private mutating func member(_ key: StaticString) -> String? {
        guard literal("  \""), literal(key), literal("\": "), let value = string(), literal(",\n") else { return nil }
        return value.text
    }

    /// The entry lists' rows up to and including `],\n`, each one also written as a digest line.
    private mutating func entries(into result: inout CanonicalManifest, resources: Bool) -> Bool {
        if literal("],\n") { return true }
        repeat {
            guard literal("\n    {\"name\": "), let name = string() else { return false }
            var type: (text: String, range: Range<Int>)?
            if resources {
                guard literal(", \"type\": "), let read = string() else { return false }
                type = read
            }
            guard literal(", \"path\": "), let path = string(), literal(", \"size\": ") else { return false }
            let sizeStart = index
            guard let size = integer() else { return false }
            let sizeEnd = index
            guard literal(", \"sha256\": "), let sha = string(), literal("}") else { return false }
            if let type {
                result.resources.append((name.text, type.text, path.text, size, sha.text))
            } else {
                result.modules.append((name.text, path.text, size, sha.text))
            }
            // The digest line: the quoted strings exactly as written (nothing in them needed an
            // escape, so they are what the digest text quotes), the size, the bare hash.
            result.entryLines.append(contentsOf: resources ? "resource ".utf8 : "module ".utf8)
            copy(name.range, into: &result.entryLines)
            if let type { copy(type.range, into: &result.entryLines) }
            copy(path.range, into: &result.entryLines)
            copy(sizeStart..<sizeEnd, into: &result.entryLines)
            result.entryLines.append(
                contentsOf: UnsafeBufferPointer(rebasing: bytes[sha.range.lowerBound + 1..<sha.range.upperBound - 1]))
            result.entryLines.append(UInt8(ascii: "\n"))
        } while literal(",")
        return literal("\n  ],\n")
    }

    /// The bytes in `range` and a space.
    private func copy(_ range: Range<Int>, into lines: inout [UInt8]) {
        lines.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
        lines.append(UInt8(ascii: " "))
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
    /// and its range in `bytes` with the quotes.
    private mutating func string() -> (text: String, range: Range<Int>)? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let start = index
        var end = index + 1
        var ascii = true
        while end < bytes.count {
            let byte = bytes[end]
            // One comparison for the bytes a name, path or hash is made of (printable ASCII
            // but the quote and the backslash), the rest sorted out below.
            if byte &- 0x20 < 0x5F, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                end += 1
                continue
            }
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte == 0x7F { return nil }
            ascii = false
            end += 1
        }
        guard end < bytes.count else { return nil }
        let content = UnsafeBufferPointer(rebasing: bytes[start + 1..<end])
        // ASCII needs no validation; anything else must be valid UTF-8, as the parser requires.
        guard let text = ascii ? String(decoding: content, as: UTF8.self) : String(validating: content, as: UTF8.self)
        else { return nil }
        index = end + 1
        return (text, start..<index)
    }

    /// A non-negative integer as the writer prints one: no sign, no leading zero, at most 18
    /// digits (so it fits an `Int64`).
    private mutating func integer() -> Int64? {
        var value: Int64 = 0
        var digits = 0
        while index + digits < bytes.count, (48...57).contains(bytes[index + digits]) {
            value = value * 10 + Int64(bytes[index + digits] - 48)
            digits += 1
            if digits > 18 { return nil }
        }
        guard digits > 0, digits == 1 || bytes[index] != UInt8(ascii: "0") else { return nil }
        index += digits
        return value
    }
}
