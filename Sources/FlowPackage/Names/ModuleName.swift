/// A Lua module name as `require` takes it: dot-separated file names (`Foo.Bar`, `lpeg-utility`).
public struct ModuleName: Hashable, Sendable, CustomStringConvertible, Comparable {
    public let rawValue: String

    public init(_ rawValue: String) throws(NameError) {
        if let problem = Self.problem(in: rawValue) {
            throw NameError(kind: .module, value: rawValue, reason: problem)
        }
        self.rawValue = rawValue
    }

    /// A name the caller has already checked (`ManifestTable` did, in bytes).
    init(checked rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }
    public var components: [Substring] { rawValue.split(separator: ".") }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The module `require(text)` finds, as stock Lua's searchers find it: they turn dots into
    /// folder separators and let a '/' through, so `require "a/b"` finds `a/b.lua`, the file of
    /// module `a.b` (`package.loaded` keeps the name as given). Nil when no module can have it.
    public static func required(_ text: String) -> ModuleName? {
        if let name = try? ModuleName(text) { return name }
        guard text.utf8.contains(UInt8(ascii: "/")) else { return nil }
        return try? ModuleName(text.replacingAll("/", with: "."))
    }

    /// `a.b` for `a.b.init`. Stock Lua's `?.lua` searcher finds `a/b/init.lua` for `require
    /// "a.b.init"`: the file that is module `a.b` when there is no `a/b.lua` (see `initFilePath`).
    public var initParent: ModuleName? {
        guard rawValue.hasSuffix(".init"), rawValue.utf8.count > 5 else { return nil }
        return try? ModuleName(String(rawValue.dropLast(5)))
    }

    /// `a/b/init.lua`: where this module's file is, relative to its sources folder (or to a
    /// package's `modules/`), when `?/init.lua` is what finds it.
    public var initFilePath: String { components.joined(separator: "/") + "/init.lua" }

    /// Lua 5.4's reserved words (which a global name cannot be; a module name may hold them).
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

    /// Whether `byte` may be part of a module name: anything a file name may hold on every
    /// system flowpkg runs on, except the '.' that separates parts. Refused: control
    /// characters, '/' and '\\' (folder separators: a name must never reach outside
    /// `modules/`), and `: * ? " < > |`, which Windows and macOS's Finder do not allow in file names.
    @inline(__always) static func isNameByte(_ byte: UInt8) -> Bool {
        if byte >= 0x80 { return true }  // part of a UTF-8 sequence: the String is valid UTF-8
        // One bit per ASCII byte, set for those allowed: a constant, so no lazy table is
        // reached for each byte of every name a package lists.
        let bits = byte < 64 ? refusedLow >> UInt64(byte) : refusedHigh >> UInt64(byte - 64)
        return bits & 1 == 0
    }

    /// The refused ASCII bytes below 64: control characters, `"`, `*`, `.`, `/`, `:`, `<`,
    /// `>`, `?`.
    private static let refusedLow: UInt64 =
        0xFFFF_FFFF | 1 << 0x22 | 1 << 0x2A | 1 << 0x2E | 1 << 0x2F | 1 << 0x3A | 1 << 0x3C | 1 << 0x3E | 1 << 0x3F

    /// The refused ASCII bytes from 64 on: `\\`, `|` and DEL.
    private static let refusedHigh: UInt64 = (1 << (0x5C - 64)) | (1 << (0x7C - 64)) | (1 << (0x7F - 64))

    /// A byte scan that accepts the common case without splitting or copying: the reader
    /// checks every module name of a package at open. Any doubt falls through to the full
    /// check, which also words the reason.
    private static func isPlainName(_ value: String) -> Bool {
        let result = value.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            var partLength = 0
            for byte in bytes {
                if byte == UInt8(ascii: ".") {
                    if partLength == 0 { return false }
                    partLength = 0
                } else {
                    if !isNameByte(byte) { return false }
                    partLength += 1
                }
            }
            return partLength > 0
        }
        return result ?? false
    }

    /// Why `value` is not a valid module name, or nil when it is.
    ///
    /// A module name is what `require` takes and stock Lua's searchers turn into a file path
    /// (`a.b` is `a/b.lua` or `a/b/init.lua`): dot-separated parts, each a non-empty file name
    /// (`lpeg-utility`, `end`, `2d` are all modules). Only what cannot be part of a portable
    /// file name is refused.
    public static func problem(in value: String) -> String? {
        if value.isEmpty { return "it is empty" }
        if isPlainName(value) { return nil }
        for part in value.split(separator: ".", omittingEmptySubsequences: false) {
            if part.isEmpty { return "it has an empty part between dots" }
            if let byte = part.utf8.first(where: { !isNameByte($0) }) {
                let shown = byte < 0x20 || byte == 0x7F ? "a control character" : "'\(Character(Unicode.Scalar(byte)))'"
                return "'\(part)' holds \(shown), which cannot be part of a module's file name"
            }
        }
        return nil
    }
}
