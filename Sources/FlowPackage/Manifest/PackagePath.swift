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
        for scalar in path.unicodeScalars where scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\\" {
            return scalar == "\\" ? "the entry name contains a backslash" : "the entry name contains a control character"
        }
        for part in path.split(separator: "/", omittingEmptySubsequences: false) {
            if part == ".." { return "the entry name contains '..'" }
            if part == "." { return "the entry name contains a '.' part" }
            if part.isEmpty { return path.hasSuffix("/") ? "the entry is a directory" : "the entry name has an empty part" }
        }
        return nil
    }

    /// The entry paths module `name` may be stored under: `modules/Foo/Bar.lua`, or
    /// `modules/Foo/Bar/init.lua` as Lua's own `package.path` allows.
    public static func modulePaths(for name: ModuleName) -> [String] {
        let base = modulesFolder + name.components.joined(separator: "/")
        return [base + ".lua", base + "/init.lua"]
    }

    /// The entry path of a module file at `relativePath` in a sources folder (`Foo/Bar.lua`).
    public static func modulePath(relativePath: String) -> String { modulesFolder + relativePath }

    /// The entry path of resource `key`: `resources/<name>.<type>`.
    public static func resourcePath(for key: ResourceKey) -> String { resourcesFolder + key.fileName }
}
