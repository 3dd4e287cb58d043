import FlowJSON

/// Edits flowpkg.json's `dependencies` (and `rocksServers`) in place: a textual splice at the places the JSON
/// parser reports, so every other byte of the file (its order, spacing, other keys) stays as
/// the user wrote it.
public struct ProjectFileEditor {
    public private(set) var bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }

    public enum EditError: Error, Equatable, CustomStringConvertible {
        case invalidJSON(String)
        case notAnObject
        case dependenciesNotAnObject
        case noSuchDependency(String)

        public var description: String {
            switch self {
            case .invalidJSON(let message): return "flowpkg.json is not valid JSON: \(message)"
            case .notAnObject: return "flowpkg.json does not hold a JSON object"
            case .dependenciesNotAnObject: return "\"dependencies\" in flowpkg.json is not an object"
            case .noSuchDependency(let name): return "flowpkg.json has no dependency named '\(name)'"
            }
        }
    }

    /// Sets `dependencies[name]` (or `key`'s, `devDependencies`) to `value` (JSON text), adding
    /// the key or the object as needed.
    public mutating func setDependency(_ name: String, value: String, key: String = "dependencies") throws(EditError) {
        let root = try parse()
        guard case .object(let members) = root.value else { throw .notAnObject }
        let entry = JSONText.quoted(name) + ": " + value
        guard let dependencies = members.first(where: { $0.key == key }) else {
            let indent = members.first.map { String(repeating: " ", count: $0.keyPosition.column - 1) } ?? "  "
            addKey(key, value: "{\n" + indent + indent + entry + "\n" + indent + "}", root: root)
            return
        }
        guard case .object(let entries) = dependencies.value.value else { throw .dependenciesNotAnObject }
        if let existing = entries.first(where: { $0.key == name }) {
            let start = offset(of: existing.value.position)
            splice(start..<endOfValue(at: start), value)
        } else if let last = entries.last {
            let indent = String(repeating: " ", count: (entries.first?.keyPosition.column ?? 5) - 1)
            let end = endOfValue(at: offset(of: last.value.position))
            splice(end..<end, ",\n" + indent + entry)
        } else {
            let keyIndent = String(repeating: " ", count: dependencies.keyPosition.column - 1)
            let start = offset(of: dependencies.value.position)
            splice(start..<endOfValue(at: start), "{\n" + keyIndent + "  " + entry + "\n" + keyIndent + "}")
        }
    }

    /// Sets the top-level `key` to `value` (JSON text), adding the key after the last one when
    /// the file has none.
    public mutating func setValue(_ value: String, forKey key: String) throws(EditError) {
        let root = try parse()
        guard case .object(let members) = root.value else { throw .notAnObject }
        if let existing = members.first(where: { $0.key == key }) {
            let start = offset(of: existing.value.position)
            splice(start..<endOfValue(at: start), value)
        } else {
            addKey(key, value: value, root: root)
        }
    }

    /// A new key after the last one, indented as the file's keys are.
    private mutating func addKey(_ key: String, value: String, root: JSONNode) {
        guard case .object(let members) = root.value else { return }
        let indent = members.first.map { String(repeating: " ", count: $0.keyPosition.column - 1) } ?? "  "
        let text = JSONText.quoted(key) + ": " + value
        if let last = members.last {
            let end = endOfValue(at: offset(of: last.value.position))
            splice(end..<end, ",\n" + indent + text)
        } else {
            let open = offset(of: root.position)
            splice((open + 1)..<(open + 1), "\n" + indent + text + "\n")
        }
    }

    /// Removes `dependencies[name]` (or `key`'s), leaving the rest as written.
    public mutating func removeDependency(_ name: String, key: String = "dependencies") throws(EditError) {
        let root = try parse()
        guard case .object(let members) = root.value,
            let dependencies = members.first(where: { $0.key == key })
        else { throw .noSuchDependency(name) }
        guard case .object(let entries) = dependencies.value.value else { throw .dependenciesNotAnObject }
        guard let index = entries.firstIndex(where: { $0.key == name }) else { throw .noSuchDependency(name) }
        if entries.count == 1 {
            let start = offset(of: dependencies.value.position)
            splice(start..<endOfValue(at: start), "{}")
        } else if index == entries.count - 1 {
            let previousEnd = endOfValue(at: offset(of: entries[index - 1].value.position))
            splice(previousEnd..<endOfValue(at: offset(of: entries[index].value.position)), "")
        } else {
            // From this key to the next one's: the entry, its comma and the line break after it.
            let start = lineStartIfBlankBefore(offset(of: entries[index].keyPosition))
            let next = lineStartIfBlankBefore(offset(of: entries[index + 1].keyPosition))
            splice(start..<next, "")
        }
    }

    private func parse() throws(EditError) -> JSONNode {
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw .invalidJSON("\(error.message) at line \(error.position.line), column \(error.position.column)")
        }
    }

    private mutating func splice(_ range: Range<Int>, _ text: String) {
        bytes.replaceSubrange(range, with: Array(text.utf8))
    }

    /// The byte offset of a parser position (columns count bytes).
    private func offset(of position: JSONPosition) -> Int {
        var line = 1
        var index = 0
        while line < position.line, index < bytes.count {
            if bytes[index] == 0x0A { line += 1 }
            index += 1
        }
        return index + position.column - 1
    }

    /// Where a key starts, moved back to its line's start when only spaces come before it.
    private func lineStartIfBlankBefore(_ offset: Int) -> Int {
        var index = offset
        while index > 0, bytes[index - 1] == 0x20 || bytes[index - 1] == 0x09 { index -= 1 }
        return index > 0 && bytes[index - 1] == 0x0A ? index : offset
    }

    /// The offset just past the JSON value starting at `start`.
    private func endOfValue(at start: Int) -> Int {
        var index = start
        var depth = 0
        var inString = false
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 1
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { return index + 1 }
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 { return index }
                    depth -= 1
                    if depth == 0 { return index + 1 }
                case UInt8(ascii: ","), 0x20, 0x0A, 0x0D, 0x09:
                    if depth == 0 { return index }
                default: break
                }
            }
            index += 1
        }
        return index
    }
}
