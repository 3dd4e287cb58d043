import FlowPackage
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Finds a host's package by identifier among the `.luapkg` files of some directories (an app
/// bundle's resources), reading only each file's manifest.
public enum PackageLocator {
    /// The one package with `identifier` in `directories` (not their subfolders).
    ///
    /// None, or more than one, throws an error listing every package found and its identifier.
    public static func locate(_ identifier: PackageIdentifier, in directories: [URL]) throws(LoaderError) -> URL {
        let found = candidates(in: directories)
        let matches = found.filter { $0.identifier == identifier.rawValue }
        switch matches.count {
        case 1: return URL(fileURLWithPath: matches[0].path)
        case 0: throw .packageNotFound(identifier: identifier, searched: directories.map(\.path), found: found)
        default: throw .ambiguousPackage(identifier: identifier, matches: matches.map(\.path), found: found)
        }
    }

    /// Every `.luapkg` in `directories`, sorted by path, with the identifier its manifest gives.
    public static func candidates(in directories: [URL]) -> [PackageCandidate] {
        var found: [PackageCandidate] = []
        for directory in directories {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names.sorted() where name.hasSuffix(".luapkg") {
                let file = directory.appendingPathComponent(name)
                do {
                    let manifest = try PackageReader.readManifest(at: file)
                    found.append(PackageCandidate(path: file.path, identifier: manifest.identifier.rawValue))
                } catch {
                    let reason =
                        (error as? PackageError)?.problems.map(\.description).joined(separator: "; ") ?? "\(error)"
                    found.append(PackageCandidate(path: file.path, identifier: nil, problem: reason))
                }
            }
        }
        return found
    }
}
