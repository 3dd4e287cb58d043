/// Why a key file cannot be used.
public enum SigningKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case malformed(path: String, reason: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): return "\(path): cannot read the key: \(reason)"
        case let .malformed(path, reason): return "\(path.isEmpty ? "" : "\(path): ")\(reason)"
        }
    }
}
