#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An Ed25519 private key that signs packages (`flowpkg keygen`, `flowpkg export --sign`).
///
/// Its file is one line of text, `flowpkg-ed25519-private-key <base64 of the 32-byte seed>`,
/// written with mode 0600; the matching public key file reads
/// `flowpkg-ed25519-public-key <base64 of the 32-byte key>`. Lines starting with `#` and blank
/// lines are ignored, so a key file can carry a comment.
public struct PackageSigningKey: Sendable {
    /// The 32-byte seed (RFC 8032's private key), signed with through Nettle (see Nettle.swift).
    private let seed: [UInt8]

    /// A new random key.
    public init() {
        // SystemRandomNumberGenerator is the operating system's cryptographic source (getrandom,
        // arc4random_buf).
        var random = SystemRandomNumberGenerator()
        seed = (0..<Ed25519.keySize).map { _ in UInt8.random(in: .min ... .max, using: &random) }
    }

    /// The key a private key file holds.
    public init(text: String, path: String) throws(SigningKeyError) {
        let bytes = try KeyText.decode(text, label: KeyText.privateLabel, path: path)
        guard bytes.count == Ed25519.keySize else {
            throw .malformed(path: path, reason: "the key is not an Ed25519 private key")
        }
        seed = bytes
    }

    /// Reads a private key file.
    public init(contentsOf url: URL) throws(SigningKeyError) {
        try self.init(text: try KeyText.read(url), path: url.path)
    }

    /// The public key that checks this key's signatures.
    public var publicKey: PackagePublicKey { PackagePublicKey(checked: Ed25519.publicKey(seed: seed)) }

    /// The private key file's text.
    public var fileText: String {
        "# flowpkg package signing key (Ed25519). Keep it secret; its public key is \(publicKey.keyID).\n"
            + "\(KeyText.privateLabel) \(Data(seed).base64EncodedString())\n"
    }

    /// The Ed25519 signature of `bytes`.
    public func signature(for bytes: [UInt8]) -> [UInt8] { Ed25519.sign(bytes, seed: seed) }
}
