#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An Ed25519 public key a host trusts (`flowpkg verify --trusted-key`, an update client).
public struct PackagePublicKey: Sendable, Equatable, CustomStringConvertible {
    /// The 32 raw bytes (RFC 8032's public key), checked through Nettle (see Nettle.swift).
    public let rawBytes: [UInt8]

    init(checked rawBytes: [UInt8]) { self.rawBytes = rawBytes }

    /// The key from its 32 raw bytes.
    public init(rawBytes: [UInt8]) throws(SigningKeyError) {
        guard rawBytes.count == Ed25519.keySize else {
            throw .malformed(path: "", reason: "not an Ed25519 public key")
        }
        self.rawBytes = rawBytes
    }

    /// The key a public key file holds.
    public init(text: String, path: String) throws(SigningKeyError) {
        let bytes = try KeyText.decode(text, label: KeyText.publicLabel, path: path)
        guard bytes.count == Ed25519.keySize else {
            throw .malformed(path: path, reason: "the key is not an Ed25519 public key")
        }
        rawBytes = bytes
    }

    /// Reads a public key file.
    public init(contentsOf url: URL) throws(SigningKeyError) {
        try self.init(text: try KeyText.read(url), path: url.path)
    }

    /// A short name for messages: the first 16 hex digits of the key's SHA-256.
    public var keyID: String { String(SHA256.hex(of: rawBytes).prefix(16)) }

    public var description: String { keyID }

    /// The public key file's text.
    public var fileText: String {
        "# flowpkg package signing public key (Ed25519), key id \(keyID)\n"
            + "\(KeyText.publicLabel) \(Data(rawBytes).base64EncodedString())\n"
    }

    /// Whether `signature` is this key's signature of `bytes`.
    public func isValidSignature(_ signature: [UInt8], for bytes: [UInt8]) -> Bool {
        Ed25519.isValid(signature, of: bytes, publicKey: rawBytes)
    }

    public static func == (lhs: PackagePublicKey, rhs: PackagePublicKey) -> Bool { lhs.rawBytes == rhs.rawBytes }
}
