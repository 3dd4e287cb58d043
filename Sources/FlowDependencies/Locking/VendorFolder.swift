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

/// `vendor/NAME/PATH`, reached without following a symbolic link: every component from
/// `vendor` down is checked with `lstat`, so a committed `vendor/lib -> ../../outside` can
/// neither receive files (`flowpkg vendor`) nor be read as a locked file (a hash oracle).
public enum VendorFolder {
    /// The path `vendor` writes `path` of `dependency` to, its folders made where missing.
    static func prepare(root: String, dependency: String, path: String) throws(DependencyError) -> String {
        try walk(root: root, dependency: dependency, path: path, creating: true) ?? ""
    }

    /// The vendored file of `path` of `dependency`, or nil when vendor/ does not hold it.
    public static func existing(root: String, dependency: String, path: String) throws(DependencyError) -> String? {
        try walk(root: root, dependency: dependency, path: path, creating: false)
    }

    private static func walk(root: String, dependency: String, path: String, creating: Bool)
        throws(DependencyError) -> String?
    {
        let components =
            ["vendor", dependency] + path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // Every target resolves inside vendor/NAME/: no empty, `.` or `..` part, ever.
        if let bad = components.first(where: { $0.isEmpty || $0.allSatisfy { $0 == "." } }) {
            throw .lockOutOfDate(
                reason:
                    "flowpkg.lock names 'vendor/\(dependency)/\(path)', whose part '\(bad)' leaves vendor/\(dependency)/"
            )
        }
        var shown = ""
        for (index, component) in components.enumerated() {
            shown += (shown.isEmpty ? "" : "/") + component
            let current = root + "/" + shown
            let isLast = index == components.count - 1
            var info = stat()
            if lstat(current, &info) != 0 {
                guard errno == ENOENT else {
                    throw .io(path: current, reason: String(cString: strerror(errno)))
                }
                if !creating { return nil }
                if isLast { return current }
                if mkdir(current, 0o755) != 0 && errno != EEXIST {
                    throw .io(path: current, reason: "cannot create the folder: \(String(cString: strerror(errno)))")
                }
                guard lstat(current, &info) == 0 else { throw .io(path: current, reason: "it vanished") }
            }
            let kind = info.st_mode & S_IFMT
            if kind == S_IFLNK {
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: current)) ?? "?"
                throw .vendorLinked(path: shown, reason: "it is a symbolic link (to '\(target)')")
            }
            if !isLast && kind != S_IFDIR {
                throw .vendorLinked(path: shown, reason: "it is not a folder")
            }
            if isLast && kind != S_IFREG {
                throw .vendorLinked(path: shown, reason: "it is not a regular file")
            }
        }
        return root + "/" + shown
    }
}
