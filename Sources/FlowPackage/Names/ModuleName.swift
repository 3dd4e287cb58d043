/// A Lua module name as `require` takes it: dot-separated Lua identifiers (`Foo.Bar`).
public struct ModuleName: Hashable, Sendable, CustomStringConvertible, Comparable {
    public let rawValue: String

    public init(_ rawValue: String) throws(NameError) {
        if let problem = Self.problem(in: rawValue) {
            throw NameError(kind: .module, value: rawValue, reason: problem)
        }
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
    public var components: [Substring] { rawValue.split(separator: ".") }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Lua 5.4's reserved words, which can never be part of a module name.
    public static let luaKeywords: Set<String> = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
        "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
    ]

    /// Whether `part` is a Lua identifier: a letter or `_`, then letters, digits or `_`, not a keyword.
    public static func isLuaIdentifier(_ part: Substring) -> Bool {
        guard let first = part.utf8.first, !(48...57).contains(first) else { return false }
        for byte in part.utf8 {
            let ok = (65...90).contains(byte) || (97...122).contains(byte) || (48...57).contains(byte) || byte == 95
            if !ok { return false }
        }
        // No keyword is longer than 8 bytes ("function"), so most names skip the set lookup.
        return part.utf8.count > 8 || !luaKeywords.contains(String(part))
    }

    /// A byte scan that accepts the common case (dot-separated identifiers, no keyword) without
    /// splitting or copying: the reader checks every module name of a package at open. Any
    /// doubt falls through to the full check, which also words the reason.
    private static func isPlainName(_ value: String) -> Bool {
        let result = value.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            var start = 0
            for index in 0...bytes.count {
                if index < bytes.count, bytes[index] != UInt8(ascii: ".") { continue }
                let part = UnsafeBufferPointer(rebasing: bytes[start..<index])
                guard let first = part.first, !(48...57).contains(first) else { return false }
                for byte in part {
                    let ok = (65...90).contains(byte) || (97...122).contains(byte) || (48...57).contains(byte) || byte == 95
                    if !ok { return false }
                }
                if part.count <= 8, keywordBytes.contains(where: { $0.elementsEqual(part) }) { return false }
                start = index + 1
            }
            return true
        }
        return result ?? false
    }

    private static let keywordBytes: [[UInt8]] = luaKeywords.map { Array($0.utf8) }

    /// Why `value` is not a valid module name, or nil when it is.
    public static func problem(in value: String) -> String? {
        if value.isEmpty { return "it is empty" }
        if isPlainName(value) { return nil }
        for part in value.split(separator: ".", omittingEmptySubsequences: false) {
            if part.isEmpty { return "it has an empty part between dots" }
            if !isLuaIdentifier(part) {
                return "'\(part)' is not a Lua identifier (letters, digits and '_', not starting with a digit, not a keyword)"
            }
        }
        return nil
    }
}
