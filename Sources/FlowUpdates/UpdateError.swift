/// Why checking for, downloading or installing an update failed. The embedded package (or
/// the update already in use) keeps running whatever the error.
public enum UpdateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The feed cannot be reached or read (network, HTTP status, missing file).
    case unreachable(url: String, reason: String)
    /// The feed's index is not one this code reads.
    case badFeed(String)
    /// A downloaded package was refused and deleted.
    case refused(version: String?, reason: String)
    /// The feed offers a package the client will not fetch (larger than the host allows).
    case notDownloaded(version: String?, reason: String)
    /// The whole check (index and download) passed the host's deadline.
    case deadline(seconds: Double)
    /// `flowpkg publish` changed nothing in the feed.
    case notPublished(String)
    /// The scheme is not one this platform's client speaks.
    case unsupportedScheme(String)
    /// The update store cannot be written.
    case store(path: String, reason: String)

    public var description: String {
        switch self {
        case let .unreachable(url, reason): return "the update feed \(url) cannot be read: \(reason)"
        case let .badFeed(reason): return "the update feed is refused: \(reason)"
        case let .refused(version, reason):
            return "the update\(version.map { " \($0)" } ?? "") was refused and deleted: \(reason)"
        case let .notDownloaded(version, reason):
            return "the update\(version.map { " \($0)" } ?? "") is not downloaded: \(reason)"
        case let .deadline(seconds):
            return
                "the update check did not finish within its deadline of \(String(printf: "%g", seconds)) s (index and download); it stopped, and what was downloaded so far is kept to resume"
        case let .notPublished(reason): return "nothing was published: \(reason)"
        case let .unsupportedScheme(reason): return reason
        case let .store(path, reason): return "\(path): the update store cannot be written: \(reason)"
        }
    }
}
