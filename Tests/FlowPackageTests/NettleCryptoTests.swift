import Crypto
import Foundation
import Testing

@testable import FlowPackage

/// FlowPackage hashes and signs through Nettle; swift-crypto (what it used before, and what
/// FlowUpdates still links) is the reference: the same digests, keys and signatures both ways,
/// so keys and packages made before the switch stay valid.
@Suite struct NettleCryptoTests {
    @Test func sha256MatchesSwiftCrypto() {
        for size in [0, 1, 55, 56, 63, 64, 65, 1000, 100_000] {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let expected = Array(Crypto.SHA256.hash(data: bytes))
            #expect(FlowPackage.SHA256.hash(data: bytes) == expected, "\(size) bytes")
            // Fed in uneven pieces, as the writer and reader feed it.
            var hasher = FlowPackage.SHA256()
            var offset = 0
            while offset < size {
                let end = min(size, offset + 1 + offset % 97)
                bytes[offset..<end].withUnsafeBytes { hasher.update(bufferPointer: $0) }
                offset = end
            }
            #expect(hasher.finalize() == expected, "\(size) bytes in pieces")
        }
    }

    @Test func ed25519KeysAndSignaturesMatchSwiftCryptoBothWays() throws {
        let reference = Curve25519.Signing.PrivateKey()
        let text = "flowpkg-ed25519-private-key \(reference.rawRepresentation.base64EncodedString())\n"
        let key = try PackageSigningKey(text: text, path: "reference.key")
        #expect(key.publicKey.rawBytes == Array(reference.publicKey.rawRepresentation))

        let message = Array("manifest bytes".utf8)
        let ours = key.signature(for: message)
        #expect(ours.count == 64)
        #expect(reference.publicKey.isValidSignature(ours, for: message))
        let theirs = Array(try reference.signature(for: message))
        #expect(key.publicKey.isValidSignature(theirs, for: message))

        var tampered = ours
        tampered[10] ^= 1
        #expect(!key.publicKey.isValidSignature(tampered, for: message))
        #expect(!key.publicKey.isValidSignature(ours, for: message + [0]))
        #expect(!PackageSigningKey().publicKey.isValidSignature(ours, for: message))
    }

    @Test func newKeysAreRandom() {
        #expect(PackageSigningKey().publicKey != PackageSigningKey().publicKey)
    }
}
