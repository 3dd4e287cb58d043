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

/// The rules for entry paths inside a package, shared by the writer (which must never produce
/// a path the reader refuses) and the reader (which refuses everything else).
public enum PackagePath {
    /// The folder module entries live in.
    public static let modulesFolder = "modules/"
    /// The folder resource entries live in.
    public static let resourcesFolder = "resources/"
    /// Where scripts (Lua files loaded by path) are stored.
    public static let scriptsFolder = "scripts/"

    /// The sort order of entries and digest lines: plain UTF-8 byte order, the same on every
    /// machine and in every locale.
    public static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                for index in 0..<min(left.count, right.count) where left[index] != right[index] {
                    return left[index] < right[index]
                }
                return left.count < right.count
            }
        }
    }

    /// Whether `text` is ASCII. Only then are byte order and byte equality Swift's `==` and
    /// hashing too (which compare canonically: NFC `é` equals NFD `e` + U+0301, the Kelvin
    /// sign equals `K`), so only then may the reader's shortcuts reason with bytes alone.
    static func isASCII(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in !bytes.contains { $0 >= 0x80 } }
            ?? !text.utf8.contains { $0 >= 0x80 }
    }

    /// Whether `lhs` and `rhs` hold the same bytes (not merely canonically equal strings).
    static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
        let same = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in
                left.count == right.count
                    && (left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
            }
        }
        return (same ?? nil) ?? lhs.utf8.elementsEqual(rhs.utf8)
    }

    /// Why `path` cannot be an entry of a package, or nil when it is a safe relative path:
    /// no leading `/`, no `.` or `..` part, no empty part, no backslash, no control character.
    public static func problem(in path: String) -> String? {
        var path = path
        return path.withUTF8 { problem(inBytes: $0) }
    }

    private static func problem(inBytes path: UnsafeBufferPointer<UInt8>) -> String? {
        if path.isEmpty { return "the entry name is empty" }
        if path[0] == UInt8(ascii: "/") { return "the entry name is an absolute path" }
        if path.count > 1024 { return "the entry name is longer than 1024 bytes" }
        // Control characters and the backslash are ASCII, so bytes find them (every byte of a
        // longer UTF-8 sequence is 0x80 or above). Parts between slashes are checked in the
        // same pass: this runs for every entry at every open.
        var partLength = 0
        var dots = 0
        func partProblem() -> String? {
            if partLength == 2, dots == 2 { return "the entry name contains '..'" }
            if partLength == 1, dots == 1 { return "the entry name contains a '.' part" }
            if partLength == 0 {
                return path.last == UInt8(ascii: "/") ? "the entry is a directory" : "the entry name has an empty part"
            }
            return nil
        }
        var partProblemFound: String?
        for byte in path {
            if byte < 0x20 || byte == 0x7F { return "the entry name contains a control character" }
            if byte == UInt8(ascii: "\\") { return "the entry name contains a backslash" }
            if byte == UInt8(ascii: "/") {
                if partProblemFound == nil { partProblemFound = partProblem() }
                partLength = 0
                dots = 0
            } else {
                partLength += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        return partProblemFound ?? partProblem()
    }

    /// The entry paths module `name` may be stored under: `modules/Foo/Bar.lua`, or
    /// `modules/Foo/Bar/init.lua` as Lua's own `package.path` allows.
    public static func modulePaths(for name: ModuleName) -> [String] {
        let folder = moduleFolder(for: name)
        return [folder + ".lua", folder + "/init.lua"]
    }

    /// `modules/a/b` for module `a.b`: both of its paths without their endings.
    static func moduleFolder(for name: ModuleName) -> String {
        // Byte by byte: splitting and joining `Substring`s had the runtime build generic
        // metadata for it at the first lookup of every run.
        var base = Array(modulesFolder.utf8)
        base.reserveCapacity(base.count + name.rawValue.utf8.count + 9)
        for byte in name.rawValue.utf8 { base.append(byte == UInt8(ascii: ".") ? UInt8(ascii: "/") : byte) }
        return String(decoding: base, as: UTF8.self)
    }

    /// Whether `path` is one of `modulePaths(for: name)`, compared byte by byte without
    /// building either path (the reader checks a thousand modules at open).
    public static func isModulePath(_ path: String, for name: ModuleName) -> Bool {
        var path = path
        var name = name.rawValue
        return path.withUTF8 { path in
            name.withUTF8 { name in
                let folder = 8  // "modules/"
                guard path.count > folder + name.count,
                    path.starts(with: modulesFolder.utf8)
                else { return false }
                for (offset, byte) in name.enumerated()
                where path[folder + offset] != (byte == UInt8(ascii: ".") ? UInt8(ascii: "/") : byte) {
                    return false
                }
                let rest = UnsafeBufferPointer(rebasing: path[(folder + name.count)...])
                return rest.elementsEqual(".lua".utf8) || rest.elementsEqual("/init.lua".utf8)
            }
        }
    }

    /// The entry path of a module file at `relativePath` in a sources folder (`Foo/Bar.lua`).
    public static func modulePath(relativePath: String) -> String { modulesFolder + relativePath }

    /// The entry path of resource `key`: `resources/<name>.<type>`.
    public static func resourcePath(for key: ResourceKey) -> String { resourcesFolder + key.fileName }

    /// Where the script at `relativePath` inside its sources folder is stored.
    public static func scriptPath(relativePath: String) -> String { scriptsFolder + relativePath }
}
