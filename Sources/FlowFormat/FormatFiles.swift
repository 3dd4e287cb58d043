import FlowSupport

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

/// Which files `flowpkg fmt` formats: the `.lua` files named or below the folders named, less
/// those `.styluaignore` (in the folder fmt runs from) excludes, and never what lies in
/// dependency folders (`vendor/`, `lua_modules/`, `.luarocks/`) or hidden folders.
package struct FormatFiles {
    /// Folder names a walk never enters.
    static let skippedFolders: Set<String> = ["vendor", "lua_modules", "node_modules", ".luarocks"]

    let root: String
    var patterns: [(pattern: String, negated: Bool, folderOnly: Bool, anchored: Bool)] = []

    /// Reads `root/.styluaignore` when there is one.
    package init(root: String) {
        self.root = root
        guard let data = FileManager.default.contents(atPath: root + "/.styluaignore") else { return }
        for raw in String(decoding: data, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            var line = String(raw).trimmingSpaces()
            if line.isEmpty || line.hasPrefix("#") { continue }
            let negated = line.hasPrefix("!")
            if negated { line.removeFirst() }
            let folderOnly = line.hasSuffix("/")
            if folderOnly { line.removeLast() }
            let anchored = line.dropLast().contains("/")
            if line.hasPrefix("/") { line.removeFirst() }
            patterns.append((line, negated, folderOnly, anchored))
        }
    }

    /// The files to format, sorted within each folder named; a path that does not exist is
    /// returned as it is (formatting it reports that it cannot be read).
    package func files(in paths: [String]) -> [String] {
        var found: [String] = []
        for path in paths {
            guard FileManager.default.isFolder(atPath: path) else {
                if !isIgnored(path, isFolder: false) { found.append(path) }
                continue
            }
            var below: [String] = []
            // Hidden and dependency folders are not entered; the walk tells files from folders.
            let entries = FileManager.default.walkEntries(path) { _, name in
                !name.hasPrefix(".") && !Self.skippedFolders.contains(name)
            }
            for entry in entries where !entry.isFolder && entry.path.hasSuffix(".lua") {
                let relative = entry.path
                let full = path == "." ? relative : (path.hasSuffix("/") ? path + relative : path + "/" + relative)
                if !isIgnored(full, isFolder: false) { below.append(full) }
            }
            found += below.sorted()
        }
        return found
    }

    /// Whether `.styluaignore` excludes `path` (or a folder above it); the last matching
    /// pattern decides, `!` taking a path back.
    package func isIgnored(_ path: String, isFolder: Bool) -> Bool {
        guard !patterns.isEmpty else { return false }
        var relative = path
        if relative.hasPrefix(root + "/") { relative.removeFirst(root.count + 1) }
        if relative.hasPrefix("./") { relative.removeFirst(2) }
        let components = relative.split(separator: "/").map(String.init)
        var ignored = false
        for (pattern, negated, folderOnly, anchored) in patterns {
            // The path itself, or any folder above it.
            for end in stride(from: components.count, through: 1, by: -1) {
                let isFolderPrefix = end < components.count || isFolder
                if folderOnly && !isFolderPrefix { continue }
                if Self.matches(pattern, components[0..<end], anchored: anchored) {
                    ignored = !negated
                    break
                }
            }
        }
        return ignored
    }

    static func matches(_ pattern: String, _ components: ArraySlice<String>, anchored: Bool) -> Bool {
        if anchored {
            return fnmatch(pattern.replacingAll("**/", with: "*/"), components.joined(separator: "/"), 0) == 0
                || fnmatch(pattern, components.joined(separator: "/"), FNM_PATHNAME) == 0
        }
        return fnmatch(pattern, components.last ?? "", 0) == 0
    }
}
