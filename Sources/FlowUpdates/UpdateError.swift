/// Why checking for, downloading or installing an update failed. The embedded package (or
/// the update already in use) keeps running whatever the error.
public enum UpdateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The feed cannot be reached or read (network, HTTP status, missing file).
    case unreachable(url: String, reason: String)
    /// The feed's index is not one this code reads.
    case badFeed(String)
    /// A downloaded package was refused and deleted.
    case refused(version: String?, reason: String)
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
        case let .unsupportedScheme(reason): return reason
        case let .store(path, reason): return "\(path): the update store cannot be written: \(reason)"
        }
    }
}
