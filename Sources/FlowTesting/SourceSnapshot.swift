#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The `.lua` files below a project folder (hidden names left out) with their size and time of
/// last change: what `--watch` compares after each event of the file watcher to know which files
/// were saved.
public struct SourceSnapshot: Sendable, Equatable {
    struct Stamp: Sendable, Equatable {
        var size: Int
        var modified: Date?
    }

    private var stamps: [String: Stamp] = [:]

    /// The `.lua` files below `root` now, by path relative to it.
    public init(root: String) {
        for path in SpecDiscovery.walk(root) where path.hasSuffix(".lua") {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: root + "/" + path) else {
                continue
            }
            stamps[path] = Stamp(
                size: (attributes[.size] as? Int) ?? -1, modified: attributes[.modificationDate] as? Date)
        }
    }

    /// The files changed, added or removed since `earlier`, sorted.
    public func changes(since earlier: SourceSnapshot) -> [String] {
        let paths = Set(stamps.keys).union(earlier.stamps.keys)
        return paths.filter { stamps[$0] != earlier.stamps[$0] }.sorted()
    }
}
