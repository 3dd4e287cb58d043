import FlowPackage
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
///       "signed": true,
///       "keyID": "<key id of the package's signer>",
///       "directoryOffset": 4100
///     }
///   },
///   "version": 7,
///   "expires": "2026-12-23T19:00:00Z",
///   "signature": "ed25519 <base64 public key> <base64 signature>"
/// }
/// ```
/// A rollback entry is `{"kind": "rollback", "identifier": "com.example.app"}`. Packages are
/// stored under `packages/`, named by their file's SHA-256, and never rewritten.
///
/// The index is signed with the packages' key: the signature covers `signedText()`, a
/// canonical rendering of every other field (so any JSON encoder may write the file), and a
/// client refuses an index that is unsigned, signed by a key it does not trust, expired, or
/// older (`version`) than one it has already accepted.
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
        /// The key id of the key that signed the package (`PackagePublicKey.keyID`).
        public var keyID: String?
        /// Where the package's zip central directory starts: a client that holds an earlier
        /// version fetches the directory with one byte range and only the entries it lacks.
        public var directoryOffset: Int64?

        public init(
            kind: Kind, identifier: String, version: String? = nil, runtimeVersion: String? = nil,
            path: String? = nil, size: Int64? = nil, sha256: String? = nil, signed: Bool? = nil,
            keyID: String? = nil, directoryOffset: Int64? = nil
        ) {
            self.keyID = keyID
            self.directoryOffset = directoryOffset
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
    /// An index is three levels deep; a deeper one is refused unparsed.
    static let maxIndexDepth = 8

    public var feedVersion: Int
    public var channels: [String: Entry]
    /// Goes up by one at every publish; a client refuses an index older than one it accepted
    /// (a replayed index).
    public var version: Int64?
    /// After this moment (ISO 8601, UTC) a client refuses the index (a feed frozen in time).
    public var expires: String?
    /// `ed25519 <base64 public key> <base64 signature>` over `signedText()`.
    public var signature: String?

    public init(
        feedVersion: Int = UpdateFeed.currentVersion, channels: [String: Entry] = [:], version: Int64? = nil,
        expires: String? = nil, signature: String? = nil
    ) {
        self.feedVersion = feedVersion
        self.channels = channels
        self.version = version
        self.expires = expires
        self.signature = signature
    }

    /// The bytes the signature covers: every field but the signature, one per line in a fixed
    /// order, each value length-prefixed, so no two indexes share a text.
    public func signedText() -> [UInt8] {
        var text = "flowpkg-feed-index\n"
        func field(_ name: String, _ value: String?) {
            guard let value else { return }
            text += "\(name)=\(value.utf8.count):\(value)\n"
        }
        field("feedVersion", String(feedVersion))
        field("version", version.map(String.init))
        field("expires", expires)
        for (name, entry) in channels.sorted(by: { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }) {
            field("channel", name)
            field(" kind", entry.kind.rawValue)
            field(" identifier", entry.identifier)
            field(" version", entry.version)
            field(" runtimeVersion", entry.runtimeVersion)
            field(" path", entry.path)
            field(" size", entry.size.map(String.init))
            field(" sha256", entry.sha256)
            field(" signed", entry.signed.map { $0 ? "true" : "false" })
            field(" keyID", entry.keyID)
            field(" directoryOffset", entry.directoryOffset.map(String.init))
        }
        return Array(text.utf8)
    }

    /// Signs the index with `key` (sets `signature`).
    public mutating func sign(with key: PackageSigningKey) {
        let signature = PackageSignature(signing: signedText(), with: key)
        self.signature = String(decoding: signature.bytes.dropLast(), as: UTF8.self)
    }

    /// Why a client may not act on this index, or nil: it must be signed by one of
    /// `trustedKeys`, not expired at `now`, and not older than `acceptedVersion`.
    public func refusal(trustedKeys: [PackagePublicKey], now: Date, acceptedVersion: Int64?) -> String? {
        guard let text = signature else {
            return "the index is not signed (publish it with flowpkg publish --sign KEY)"
        }
        guard let parsed = PackageSignature(bytes: Array((text + "\n").utf8)) else {
            return "the index's \"signature\" is not an ed25519 signature"
        }
        guard let key = trustedKeys.first(where: { $0.rawBytes == parsed.publicKey }) else {
            return "the index is signed by key \(parsed.signerKeyID), which is not a trusted key"
        }
        guard key.isValidSignature(parsed.signature, for: signedText()) else {
            return
                "the index's signature by key \(key.keyID) does not match it: the index was changed after it was signed"
        }
        guard let version, version >= 1 else { return "the index has no \"version\"" }
        guard let expires, let expiry = Self.date(expires) else {
            return "the index has no valid \"expires\" date"
        }
        if now > expiry {
            return "the index expired at \(expires); publish again to renew it (a feed that is not renewed is frozen)"
        }
        if let acceptedVersion, version < acceptedVersion {
            return
                "the index is version \(version), older than version \(acceptedVersion) already seen (a replayed index)"
        }
        return nil
    }

    /// `date` as the index writes it: ISO 8601 in UTC, to the second.
    public static func timestamp(_ date: Date) -> String {
        // Date.ISO8601FormatStyle: ISO8601DateFormatter is not in FoundationEssentials. Its
        // default time zone is GMT; a zone named by identifier ("UTC") is nil in the
        // static binary, which has no FoundationInternationalization.
        Date.ISO8601FormatStyle().format(date)
    }

    static func date(_ text: String) -> Date? {
        try? Date.ISO8601FormatStyle().parse(text)
    }

    /// Parses an index, checking what a client relies on.
    public static func decode(_ bytes: [UInt8]) throws(UpdateError) -> UpdateFeed {
        guard bytes.count <= maxIndexBytes else { throw .badFeed("the index is over \(maxIndexBytes) bytes") }
        // Foundation's parser recurses per level: a hostile index of deep nesting is refused
        // before it is parsed (an index is three levels deep).
        var depth = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                if depth > maxIndexDepth { throw .badFeed("the index nests deeper than \(maxIndexDepth) levels") }
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
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
