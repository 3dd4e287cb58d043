/// The rules for entry paths inside a package, shared by the writer (which must never produce
/// a path the reader refuses) and the reader (which refuses everything else).
public enum PackagePath {
    /// The folder module entries live in.
    public static let modulesFolder = "modules/"
    /// The folder resource entries live in.
    public static let resourcesFolder = "resources/"

    /// The sort order of entries and digest lines: plain UTF-8 byte order, the same on every
    /// machine and in every locale.
    public static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    /// Why `path` cannot be an entry of a package, or nil when it is a safe relative path:
    /// no leading `/`, no `.` or `..` part, no empty part, no backslash, no control character.
    public static func problem(in path: String) -> String? {
        if path.isEmpty { return "the entry name is empty" }
        if path.hasPrefix("/") { return "the entry name is an absolute path" }
        if path.utf8.count > 1024 { return "the entry name is longer than 1024 bytes" }
        // Control characters and the backslash are ASCII, so bytes find them (every byte of a
        // longer UTF-8 sequence is 0x80 or above).
        for byte in path.utf8 where byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\\") {
            return byte == UInt8(ascii: "\\")
                ? "the entry name contains a backslash" : "the entry name contains a control character"
        }
        // Parts between slashes, scanned as bytes: this runs for every entry at every open.
        var partLength = 0
        var dots = 0
        func partProblem() -> String? {
            if partLength == 2, dots == 2 { return "the entry name contains '..'" }
            if partLength == 1, dots == 1 { return "the entry name contains a '.' part" }
            if partLength == 0 {
                return path.hasSuffix("/") ? "the entry is a directory" : "the entry name has an empty part"
            }
            return nil
        }
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                if let problem = partProblem() { return problem }
                partLength = 0
                dots = 0
            } else {
                partLength += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        if let problem = partProblem() { return problem }
        return nil
    }

    /// The entry paths module `name` may be stored under: `modules/Foo/Bar.lua`, or
    /// `modules/Foo/Bar/init.lua` as Lua's own `package.path` allows.
    public static func modulePaths(for name: ModuleName) -> [String] {
        let base = modulesFolder + name.components.joined(separator: "/")
        return [base + ".lua", base + "/init.lua"]
    }

    /// Whether `path` is one of `modulePaths(for: name)`, compared byte by byte without
    /// building either path (the reader checks a thousand modules at open).
    public static func isModulePath(_ path: String, for name: ModuleName) -> Bool {
        var rest = Substring(path).utf8
        guard rest.starts(with: modulesFolder.utf8) else { return false }
        rest = rest.dropFirst(modulesFolder.utf8.count)
        for byte in name.rawValue.utf8 {
            guard let next = rest.first, next == (byte == UInt8(ascii: ".") ? UInt8(ascii: "/") : byte) else {
                return false
            }
            rest = rest.dropFirst()
        }
        return rest.elementsEqual(".lua".utf8) || rest.elementsEqual("/init.lua".utf8)
    }

    /// The entry path of a module file at `relativePath` in a sources folder (`Foo/Bar.lua`).
    public static func modulePath(relativePath: String) -> String { modulesFolder + relativePath }

    /// The entry path of resource `key`: `resources/<name>.<type>`.
    public static func resourcePath(for key: ResourceKey) -> String { resourcesFolder + key.fileName }
}
