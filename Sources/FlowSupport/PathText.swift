#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Path arithmetic on plain strings (FoundationEssentials has no NSString), and the one way a
/// path is made relative for a person to read.
package enum PathText {
    /// The canonical path of `path` (links and `..` resolved), or nil with `errno` set.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `a/b/c` → `a/b`; `c` → `.`; `/c` → `/`.
    package static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `a/b/c.lua` → `c.lua`.
    package static func lastComponent(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }

    /// `relative` against `base` unless it is absolute, with `.` and `..` resolved.
    package static func resolve(_ relative: String, against base: String) -> String {
        let joined = relative.hasPrefix("/") ? relative : base + "/" + relative
        var parts: [Substring] = []
        for part in joined.split(separator: "/") {
            if part == "." || part.isEmpty { continue }
            if part == ".." {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `path` relative to the folder `base`, both absolute and standardized: `../../x`, or `.`
    /// for the folder itself. What messages show and what flowpkg.json records.
    package static func relative(_ path: String, from base: String) -> String {
        let target = path.split(separator: "/"), from = base.split(separator: "/")
        var common = 0
        while common < target.count, common < from.count, target[common] == from[common] { common += 1 }
        let parts = Array(repeating: "..", count: from.count - common) + target[common...].map(String.init)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
