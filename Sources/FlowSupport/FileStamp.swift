#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A file's size and modification time, or nil when it is not there: whether a file changed
/// since it was last read (a configuration file a cache was made from).
package struct FileStamp: Equatable, Sendable {
    package var size: Int64
    package var modified: TimeInterval

    package init?(path: String) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
        size = FileManager.size(in: attributes) ?? -1
        modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
    }
}
