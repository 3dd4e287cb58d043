import Crypto
import Foundation

/// An Ed25519 private key that signs packages (`flowpkg keygen`, `flowpkg export --sign`).
///
/// Its file is one line of text, `flowpkg-ed25519-private-key <base64 of the 32-byte seed>`,
/// written with mode 0600; the matching public key file reads
/// `flowpkg-ed25519-public-key <base64 of the 32-byte key>`. Lines starting with `#` and blank
/// lines are ignored, so a key file can carry a comment.
public struct PackageSigningKey: Sendable {
    /// The 32-byte seed; swift-crypto's key type is not Sendable, so it is made when needed.
    private let seed: [UInt8]
    private var key: Curve25519.Signing.PrivateKey {
        // The seed was checked when this value was made.
        try! Curve25519.Signing.PrivateKey(rawRepresentation: seed)
    }

    /// A new random key.
    public init() { seed = Array(Curve25519.Signing.PrivateKey().rawRepresentation) }

    /// The key a private key file holds.
    public init(text: String, path: String) throws(SigningKeyError) {
        let bytes = try KeyText.decode(text, label: KeyText.privateLabel, path: path)
        guard (try? Curve25519.Signing.PrivateKey(rawRepresentation: bytes)) != nil else {
            throw .malformed(path: path, reason: "the key is not an Ed25519 private key")
        }
        seed = bytes
    }

    /// Reads a private key file.
    public init(contentsOf url: URL) throws(SigningKeyError) {
        try self.init(text: try KeyText.read(url), path: url.path)
    }

    /// The public key that checks this key's signatures.
    public var publicKey: PackagePublicKey { PackagePublicKey(checked: Array(key.publicKey.rawRepresentation)) }

    /// The private key file's text.
    public var fileText: String {
        "# flowpkg package signing key (Ed25519). Keep it secret; its public key is \(publicKey.keyID).\n"
            + "\(KeyText.privateLabel) \(Data(key.rawRepresentation).base64EncodedString())\n"
    }

    /// The Ed25519 signature of `bytes`.
    public func signature(for bytes: [UInt8]) -> [UInt8] {
        // Ed25519 signing cannot fail for a valid key; swift-crypto's throwing API is for
        // other backends.
        (try? Array(key.signature(for: bytes))) ?? []
    }
}

/// An Ed25519 public key a host trusts (`flowpkg verify --trusted-key`, an update client).
public struct PackagePublicKey: Sendable, Equatable, CustomStringConvertible {
    /// The 32 raw bytes; swift-crypto's key type is not Sendable, so it is made when needed.
    public let rawBytes: [UInt8]
    private var key: Curve25519.Signing.PublicKey {
        // The bytes were checked when this value was made.
        try! Curve25519.Signing.PublicKey(rawRepresentation: rawBytes)
    }

    init(checked rawBytes: [UInt8]) { self.rawBytes = rawBytes }

    /// The key from its 32 raw bytes.
    public init(rawBytes: [UInt8]) throws(SigningKeyError) {
        guard (try? Curve25519.Signing.PublicKey(rawRepresentation: rawBytes)) != nil else {
            throw .malformed(path: "", reason: "not an Ed25519 public key")
        }
        self.rawBytes = rawBytes
    }

    /// The key a public key file holds.
    public init(text: String, path: String) throws(SigningKeyError) {
        let bytes = try KeyText.decode(text, label: KeyText.publicLabel, path: path)
        guard (try? Curve25519.Signing.PublicKey(rawRepresentation: bytes)) != nil else {
            throw .malformed(path: path, reason: "the key is not an Ed25519 public key")
        }
        rawBytes = bytes
    }

    /// Reads a public key file.
    public init(contentsOf url: URL) throws(SigningKeyError) {
        try self.init(text: try KeyText.read(url), path: url.path)
    }

    /// A short name for messages: the first 16 hex digits of the key's SHA-256.
    public var keyID: String { String(hexString(SHA256.hash(data: rawBytes)).prefix(16)) }

    public var description: String { keyID }

    /// The public key file's text.
    public var fileText: String {
        "# flowpkg package signing public key (Ed25519), key id \(keyID)\n"
            + "\(KeyText.publicLabel) \(Data(rawBytes).base64EncodedString())\n"
    }

    /// Whether `signature` is this key's signature of `bytes`.
    public func isValidSignature(_ signature: [UInt8], for bytes: [UInt8]) -> Bool {
        key.isValidSignature(signature, for: bytes)
    }

    public static func == (lhs: PackagePublicKey, rhs: PackagePublicKey) -> Bool { lhs.rawBytes == rhs.rawBytes }
}

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

/// `manifest.sig`: the signature a signed package stores right after `manifest.json`.
///
/// One line of text: `ed25519 <base64 public key> <base64 signature>` and a line feed. The
/// signature covers the exact bytes of `manifest.json`, which list every entry's SHA-256, the
/// identifier and the version, so it seals the whole package. The public key is there to
/// name the signer in messages; trust comes only from the key the checker holds.
public struct PackageSignature: Sendable, Equatable {
    /// The entry's name; when present, it is the archive's second entry.
    public static let entryName = "manifest.sig"
    /// Far more than one line needs; a larger entry is refused unread.
    public static let maxBytes: Int64 = 1024

    public var publicKey: [UInt8]
    public var signature: [UInt8]

    public init(publicKey: [UInt8], signature: [UInt8]) {
        self.publicKey = publicKey
        self.signature = signature
    }

    /// Signs `manifestBytes` with `key`.
    public init(signing manifestBytes: [UInt8], with key: PackageSigningKey) {
        self.init(publicKey: key.publicKey.rawBytes, signature: key.signature(for: manifestBytes))
    }

    /// The entry's bytes.
    public var bytes: [UInt8] {
        Array("ed25519 \(Data(publicKey).base64EncodedString()) \(Data(signature).base64EncodedString())\n".utf8)
    }

    /// Parses the entry's bytes; nil when they are not one well-formed line.
    public init?(bytes: [UInt8]) {
        guard bytes.count <= Int(Self.maxBytes), bytes.last == UInt8(ascii: "\n") else { return nil }
        let parts = String(decoding: bytes.dropLast(), as: UTF8.self).split(
            separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "ed25519",
            let key = Data(base64Encoded: String(parts[1])), key.count == 32,
            let signature = Data(base64Encoded: String(parts[2])), signature.count == 64
        else { return nil }
        self.init(publicKey: Array(key), signature: Array(signature))
    }

    /// The signer's key id (see `PackagePublicKey.keyID`).
    public var signerKeyID: String { String(hexString(SHA256.hash(data: publicKey)).prefix(16)) }
}

/// What a package's signature says when checked against the keys a host trusts.
public enum SignatureStatus: Sendable, Equatable, CustomStringConvertible {
    /// Signed by one of the trusted keys, and the manifest is exactly what was signed.
    case trusted(keyID: String)
    /// No `manifest.sig`.
    case unsigned
    /// Signed, but by a key that is not trusted.
    case untrustedKey(keyID: String)
    /// Signed by a trusted key, but the signature does not match the manifest: it was
    /// changed after signing.
    case invalid(keyID: String)
    /// `manifest.sig` is there but is not a signature.
    case malformed

    public var isTrusted: Bool { if case .trusted = self { return true } else { return false } }

    public var description: String {
        switch self {
        case .trusted(let id): return "signed by trusted key \(id)"
        case .unsigned: return "the package is not signed (no \(PackageSignature.entryName)); export it with --sign KEY"
        case .untrustedKey(let id): return "signed by key \(id), which is not a trusted key"
        case .invalid(let id):
            return
                "the signature by key \(id) does not match \(Manifest.entryName): the package was changed after it was signed"
        case .malformed: return "\(PackageSignature.entryName) is not a valid signature"
        }
    }

    /// Checks `signature` (nil: unsigned, `.some(nil)`: present but malformed) of
    /// `manifestBytes` against `trustedKeys`.
    public static func check(
        signature: PackageSignature??, manifestBytes: [UInt8],
        trustedKeys: [PackagePublicKey]
    ) -> SignatureStatus {
        guard let present = signature else { return .unsigned }
        guard let signature = present else { return .malformed }
        guard let key = trustedKeys.first(where: { $0.rawBytes == signature.publicKey }) else {
            return .untrustedKey(keyID: signature.signerKeyID)
        }
        return key.isValidSignature(signature.signature, for: manifestBytes)
            ? .trusted(keyID: key.keyID) : .invalid(keyID: key.keyID)
    }
}

/// The one-line key file format shared by both key kinds.
enum KeyText {
    static let privateLabel = "flowpkg-ed25519-private-key"
    static let publicLabel = "flowpkg-ed25519-public-key"

    static func read(_ url: URL) throws(SigningKeyError) -> String {
        do {
            let data = try Data(contentsOf: url)
            guard data.count <= 4096 else {
                throw SigningKeyError.malformed(
                    path: url.path, reason: "a key file is a few lines; this one is \(data.count) bytes")
            }
            return String(decoding: data, as: UTF8.self)
        } catch let error as SigningKeyError {
            throw error
        } catch {
            throw .unreadable(path: url.path, reason: (error as NSError).localizedDescription)
        }
    }

    static func decode(_ text: String, label: String, path: String) throws(SigningKeyError) -> [UInt8] {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        guard lines.count == 1 else {
            throw .malformed(path: path, reason: "expected one line '\(label) BASE64' (made by flowpkg keygen)")
        }
        let parts = lines[0].split(separator: " ")
        guard parts.count == 2, parts[0] == label else {
            let other = label == privateLabel ? publicLabel : privateLabel
            if parts.first.map(String.init) == other {
                throw .malformed(
                    path: path,
                    reason: label == privateLabel
                        ? "this is a public key; signing needs the private key file"
                        : "this is a private key; give the public key file (.pub)")
            }
            throw .malformed(path: path, reason: "expected '\(label) BASE64' (made by flowpkg keygen)")
        }
        guard let data = Data(base64Encoded: String(parts[1])), data.count == 32 else {
            throw .malformed(path: path, reason: "the key is not 32 bytes of base64")
        }
        return Array(data)
    }
}
