#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
    public var signerKeyID: String { String(SHA256.hex(of: publicKey).prefix(16)) }
}
