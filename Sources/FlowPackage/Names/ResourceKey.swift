/// What `getResource(name, type)` asks for: `img/logo` and `png` for `Resources/img/logo.png`.
public struct ResourceKey: Hashable, Sendable, CustomStringConvertible, Comparable {
    /// Slash-separated, without the type extension.
    public let name: String
    /// The file extension without its dot; empty for a file that has none.
    public let type: String

    public init(name: String, type: String) throws(NameError) {
        if let problem = Self.problem(name: name, type: type) {
            throw NameError(kind: .resource, value: type.isEmpty ? name : "\(name).\(type)", reason: problem)
        }
        self.name = name
        self.type = type
    }

    /// A key the caller has already checked (`ManifestTable` did, in bytes).
    init(checkedName name: String, type: String) {
        self.name = name
        self.type = type
    }

    /// The key of a file at `relativePath` inside a resource folder: the last extension is the type.
    public init(relativePath: String) throws(NameError) {
        let lastSlash = relativePath.lastIndex(of: "/")
        let fileName = lastSlash.map { relativePath[relativePath.index(after: $0)...] } ?? relativePath[...]
        if let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex {
            try self.init(name: String(relativePath[..<dot]), type: String(fileName[fileName.index(after: dot)...]))
        } else {
            try self.init(name: relativePath, type: "")
        }
    }

    /// The file name inside a package's `resources/` folder.
    public var fileName: String { type.isEmpty ? name : "\(name).\(type)" }
    public var description: String { fileName }

    public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.name, lhs.type) < (rhs.name, rhs.type) }

    /// Why the pair is not a valid resource key, or nil when it is.
    public static func problem(name: String, type: String) -> String? {
        if name.isEmpty { return "the name is empty" }
        if name.utf8.first == UInt8(ascii: "/") { return "it must be relative, not start with '/'" }
        // Bytes, not characters: every byte looked for is ASCII, and a reader checks every
        // resource key of a package at open.
        var partLength = 0
        var dots = 0
        for byte in name.utf8 {
            if byte == UInt8(ascii: "/") {
                if let problem = partProblem(length: partLength, dots: dots) { return problem }
                partLength = 0
                dots = 0
            } else {
                partLength += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        if let problem = partProblem(length: partLength, dots: dots) { return problem }
        for byte in name.utf8 where byte < 0x20 || byte == UInt8(ascii: "\\") || byte == 0x7F {
            return "it contains a control character or a backslash"
        }
        for byte in type.utf8 where byte < 0x20 || byte == UInt8(ascii: "\\") || byte == 0x7F {
            return "it contains a control character or a backslash"
        }
        if type.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: ".") }) {
            return "the type '\(type)' may not contain '/' or '.'"
        }
        return nil
    }

    /// The problem with the part of a name just scanned (`length` bytes, `dots` of them '.').
    private static func partProblem(length: Int, dots: Int) -> String? {
        if length == 0 { return "it has an empty path part" }
        if length == dots, length <= 2 {
            return "'\(String(repeating: ".", count: length))' is not allowed as a path part"
        }
        return nil
    }
}
