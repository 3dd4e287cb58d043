import FlowTestSupport
import Foundation
import Testing

@testable import FlowPackage

/// FlowPackage hashes and signs through Nettle. The references are implementations and
/// vectors nobody here wrote: coreutils' `sha256sum` for SHA-256, and RFC 8032's Ed25519 test
/// vectors (section 7.1; TEST 2's signature was also checked with `openssl pkeyutl -sign
/// -rawin`), so keys and signed packages made before Nettle (with swift-crypto) stay valid.
@Suite struct NettleCryptoTests {
    @Test func sha256MatchesSha256sum() throws {
        for size in [0, 1, 55, 56, 63, 64, 65, 1000, 100_000] {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let expected = try referenceSHA256(bytes)
            #expect(FlowPackage.SHA256.hash(data: bytes).hexDigits == expected, "\(size) bytes")
            // Fed in uneven pieces, as the writer and reader feed it.
            var hasher = FlowPackage.SHA256()
            var offset = 0
            while offset < size {
                let end = min(size, offset + 1 + offset % 97)
                bytes[offset..<end].withUnsafeBytes { hasher.update(bufferPointer: $0) }
                offset = end
            }
            #expect(hasher.finalize().hexDigits == expected, "\(size) bytes in pieces")
            // finalize() leaves the hasher as it was, as swift-crypto's did.
            #expect(hasher.finalize().hexDigits == expected, "\(size) bytes, finalized twice")
        }
    }

    private static func bytes(_ hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            result.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return result
    }

    private static func key(seed: String) throws -> PackageSigningKey {
        let text = "flowpkg-ed25519-private-key \(Data(bytes(seed)).base64EncodedString())\n"
        return try PackageSigningKey(text: text, path: "rfc8032.key")
    }

    @Test func ed25519FollowsRFC8032() throws {
        // TEST 1: the public key of its secret key.
        let one = try Self.key(seed: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
        #expect(
            one.publicKey.rawBytes == Self.bytes("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"))
        // TEST 2: key, signature of the one-byte message 0x72, and its check.
        let two = try Self.key(seed: "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb")
        #expect(
            two.publicKey.rawBytes == Self.bytes("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c"))
        let expected = Self.bytes(
            "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
                + "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00")
        #expect(two.signature(for: [0x72]) == expected)
        #expect(two.publicKey.isValidSignature(expected, for: [0x72]))

        var tampered = expected
        tampered[10] ^= 1
        #expect(!two.publicKey.isValidSignature(tampered, for: [0x72]))
        #expect(!two.publicKey.isValidSignature(expected, for: [0x72, 0]))
        #expect(!one.publicKey.isValidSignature(expected, for: [0x72]))
        #expect(!two.publicKey.isValidSignature(Array(expected.dropLast()), for: [0x72]))
    }

    @Test func newKeysSignAndAreRandom() {
        let key = PackageSigningKey()
        let message = Array("manifest bytes".utf8)
        #expect(key.publicKey.isValidSignature(key.signature(for: message), for: message))
        #expect(PackageSigningKey().publicKey != PackageSigningKey().publicKey)
    }
}
