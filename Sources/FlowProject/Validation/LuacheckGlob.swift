/// luacheck 1.1's globs (`globbing.lua`), for `files[...]`, `include_files` and
/// `exclude_files`: `?`, `*` and `[a-z]`/`[!a-z]` within a path component, `**` across any
/// number of them; a glob without any of these is a path that covers its folder's files.
/// Paths and globs are relative to the project folder (where `.luacheckrc` is).
enum LuacheckGlob {
    /// Whether `path` matches `glob`, or lies in a folder it matches.
    static func matches(_ glob: String, _ path: String) -> Bool {
        let glob = normalized(glob)
        let path = normalized(path)
        if !glob.contains(where: { $0 == "*" || $0 == "?" || $0 == "[" }) {
            return glob.isEmpty || path == glob || path.hasPrefix(glob + "/")
        }
        return parts(Array(components(glob)), 0, Array(components(path)), 0)
    }

    /// Whether `first` is less specific than `second`, so applied before it (`globbing.compare`).
    static func lessSpecific(_ first: String, _ second: String) -> Bool {
        let one = components(normalized(first))
        let two = components(normalized(second))
        for index in 0..<max(one.count, two.count) {
            guard index < one.count else { return true }
            guard index < two.count else { return false }
            if (one[index] == "**" || two[index] == "**") && one[index] != two[index] { return one[index] == "**" }
            let specials = { (part: Substring) in part.filter { $0 == "*" || $0 == "?" || $0 == "[" }.count }
            if specials(one[index]) != specials(two[index]) { return specials(one[index]) > specials(two[index]) }
        }
        return normalized(first) < normalized(second)
    }

    /// `./a//b/` → `a/b`.
    static func normalized(_ path: String) -> String {
        components(path).filter { $0 != "." }.joined(separator: "/")
    }

    private static func components(_ path: String) -> [Substring] {
        path.split(separator: "/").filter { $0 != "." }
    }

    private static func parts(_ glob: [Substring], _ g: Int, _ path: [Substring], _ p: Int) -> Bool {
        // Past the glob's end, the path is what it names or lies below it.
        guard g < glob.count else { return true }
        if glob[g] == "**" {
            return (p...path.count).contains { parts(glob, g + 1, path, $0) }
        }
        guard p < path.count, component(Array(glob[g].utf8), 0, Array(path[p].utf8), 0) else { return false }
        return parts(glob, g + 1, path, p + 1)
    }

    /// One component: `*` any run, `?` one byte, `[...]` a set.
    private static func component(_ glob: [UInt8], _ g: Int, _ name: [UInt8], _ n: Int) -> Bool {
        guard g < glob.count else { return n == name.count }
        switch glob[g] {
        case UInt8(ascii: "*"):
            return (n...name.count).contains { component(glob, g + 1, name, $0) }
        case UInt8(ascii: "?"):
            return n < name.count && component(glob, g + 1, name, n + 1)
        case UInt8(ascii: "["):
            guard n < name.count, let (matched, next) = set(glob, g, name[n]) else { return false }
            return matched && component(glob, next, name, n + 1)
        default:
            return n < name.count && glob[g] == name[n] && component(glob, g + 1, name, n + 1)
        }
    }

    /// Whether `byte` is in the set at `start` (`[`), and the index past its `]`.
    private static func set(_ glob: [UInt8], _ start: Int, _ byte: UInt8) -> (Bool, Int)? {
        var index = start + 1
        var negated = false
        if index < glob.count, glob[index] == UInt8(ascii: "!") {
            negated = true
            index += 1
        }
        var found = false
        var first = true
        while index < glob.count, glob[index] != UInt8(ascii: "]") || first {
            first = false
            if index + 2 < glob.count, glob[index + 1] == UInt8(ascii: "-"), glob[index + 2] != UInt8(ascii: "]") {
                if glob[index] <= byte && byte <= glob[index + 2] { found = true }
                index += 3
            } else {
                if glob[index] == byte { found = true }
                index += 1
            }
        }
        guard index < glob.count else { return nil }
        return (found != negated, index + 1)
    }
}
