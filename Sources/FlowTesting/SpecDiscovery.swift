#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Finds spec files as busted does: each root that is a file is taken as it is; a folder is
/// walked, and the `.lua` files whose name holds one of the patterns (none of the excluded)
/// are taken, sorted, skipping hidden files and folders.
public enum SpecDiscovery {
    /// busted's default pattern.
    public static let defaultPatterns = ["_spec"]
    /// busted's default root.
    public static let defaultRoots = ["spec"]

    /// The spec files under `roots` (relative to `root`), relative to `root`.
    public static func find(root: String, roots: [String], patterns: [String], excludes: [String] = [])
        throws(TestSetupError) -> [String]
    {
        var found: [String] = []
        for given in roots {
            let shown = trimmed(given)
            let absolute = shown == "." ? root : root + "/" + shown
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) else {
                throw .notFound(path: given)
            }
            if !isDirectory {
                found.append(shown)
                continue
            }
            let candidates = walk(absolute).filter { $0.hasSuffix(".lua") }
            let names = candidates.map { String($0.split(separator: "/").last ?? "") }
            let taken: [Bool]
            do {
                taken = try BustedConfiguration.matching(names, patterns: patterns, excludes: excludes)
            } catch let error as TestSetupError {
                throw error
            } catch {
                throw .configuration(
                    file: BustedConfiguration.fileName, reason: "its patterns cannot be used: \(error)")
            }
            let files = zip(candidates, taken).filter(\.1).map { shown == "." ? $0.0 : shown + "/" + $0.0 }
            found += files.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        }
        var seen = Set<String>()
        return found.filter { seen.insert($0).inserted }
    }

    /// Every regular file below `folder`, relative to it, leaving out hidden names.
    public static func walk(_ folder: String) -> [String] {
        var files: [String] = []
        var pending = [""]
        while let prefix = pending.popLast() {
            let directory = prefix.isEmpty ? folder : folder + "/" + prefix
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            for name in names where !name.hasPrefix(".") {
                let path = prefix.isEmpty ? name : prefix + "/" + name
                var isDirectory = false
                guard FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isDirectory) else {
                    continue
                }
                if isDirectory { pending.append(path) } else { files.append(path) }
            }
        }
        return files
    }

    /// `./spec/` as `spec`: the name busted shows (no `./`, no trailing or doubled slash).
    static func trimmed(_ path: String) -> String {
        let parts = path.split(separator: "/").filter { $0 != "." }
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
