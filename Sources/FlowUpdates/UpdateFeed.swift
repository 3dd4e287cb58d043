import FlowPackage
import Foundation

/// A static update feed's index, `index.json` at the feed's root: for each channel, the
/// package clients should run, or a rollback to the embedded package.
///
/// ```json
/// {
///   "feedVersion": 1,
///   "channels": {
///     "production": {
///       "kind": "package",
///       "identifier": "com.example.app",
///       "version": "1.1.0",
///       "runtimeVersion": "1",
///       "path": "packages/<sha256>.luapkg",
///       "size": 4242,
///       "sha256": "<SHA-256 of the package file>",
///       "signed": true
///     }
///   }
/// }
/// ```
/// A rollback entry is `{"kind": "rollback", "identifier": "com.example.app"}`. Packages are
/// stored under `packages/`, named by their file's SHA-256, and never rewritten.
public struct UpdateFeed: Codable, Equatable, Sendable {
    public struct Entry: Codable, Equatable, Sendable {
        public enum Kind: String, Codable, Sendable {
            case package
            case rollback
        }

        public var kind: Kind
        public var identifier: String
        public var version: String?
        public var runtimeVersion: String?
        /// Relative to the feed's root.
        public var path: String?
        public var size: Int64?
        public var sha256: String?
        public var signed: Bool?

        public init(
            kind: Kind, identifier: String, version: String? = nil, runtimeVersion: String? = nil,
            path: String? = nil, size: Int64? = nil, sha256: String? = nil, signed: Bool? = nil
        ) {
            self.kind = kind
            self.identifier = identifier
            self.version = version
            self.runtimeVersion = runtimeVersion
            self.path = path
            self.size = size
            self.sha256 = sha256
            self.signed = signed
        }
    }

    public static let currentVersion = 1
    public static let indexName = "index.json"
    public static let defaultChannel = "production"
    /// An index is a few lines per channel; a larger answer is refused.
    public static let maxIndexBytes = 1 << 20

    public var feedVersion: Int
    public var channels: [String: Entry]

    public init(feedVersion: Int = UpdateFeed.currentVersion, channels: [String: Entry] = [:]) {
        self.feedVersion = feedVersion
        self.channels = channels
    }

    /// Parses an index, checking what a client relies on.
    public static func decode(_ bytes: [UInt8]) throws(UpdateError) -> UpdateFeed {
        guard bytes.count <= maxIndexBytes else { throw .badFeed("the index is over \(maxIndexBytes) bytes") }
        let feed: UpdateFeed
        do { feed = try JSONDecoder().decode(UpdateFeed.self, from: Data(bytes)) } catch {
            throw .badFeed("the index is not a feed index: \(Self.describe(error))")
        }
        guard feed.feedVersion == currentVersion else {
            throw .badFeed("feed version \(feed.feedVersion) is not supported (this flowpkg reads \(currentVersion))")
        }
        return feed
    }

    /// The index's bytes: sorted keys, so the same feed is always the same file.
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data()) + [UInt8(ascii: "\n")]
    }

    /// Whether `path` is a safe relative path inside the feed (`packages/<64 hex>.luapkg`).
    static func isPackagePath(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == "packages", parts[1].hasSuffix(".luapkg") else { return false }
        let name = parts[1].dropLast(".luapkg".count)
        return name.utf8.count == 64 && name.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "\"\(key.stringValue)\" is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
            DecodingError.dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return (path.isEmpty ? "" : "\(path): ") + context.debugDescription
        default: return "\(error)"
        }
    }
}
