// SHA-256 and Ed25519 on Apple platforms, through CryptoKit, so an iOS or macOS host links no
// Nettle (the same `SHA256` and `Ed25519` as Nettle.swift gives elsewhere: RFC 8032's keys and
// signatures, raw 32-byte keys, 64-byte signatures).
//
// NOT COMPILED HERE: the machines this project is built and tested on run Linux, which has no
// CryptoKit, so this file has never been built. Keep it this one small file, and check it on a
// Mac (`swift build`, then FlowPackageTests' NettleCryptoTests, whose RFC 8032 vectors hold
// either implementation) before relying on it.
#if canImport(CryptoKit)
    import CryptoKit
    import Foundation

    /// SHA-256, fed in pieces (what Nettle.swift's `SHA256` is on Linux).
    package struct SHA256 {
        private var hasher = CryptoKit.SHA256()

        package init() {}

        package mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) {
            hasher.update(bufferPointer: bytes)
        }

        package mutating func update<Bytes: ContiguousBytes>(data: Bytes) {
            data.withUnsafeBytes { update(bufferPointer: $0) }
        }

        /// The 32-byte digest of what was fed so far; the hasher is left as it was.
        package func finalize() -> [UInt8] {
            Array(hasher.finalize())
        }

        package static func hash<Bytes: ContiguousBytes>(data: Bytes) -> [UInt8] {
            var hasher = SHA256()
            hasher.update(data: data)
            return hasher.finalize()
        }
    }

    /// Ed25519 (RFC 8032) over raw 32-byte keys and 64-byte signatures.
    enum Ed25519 {
        static let keySize = 32
        static let signatureSize = 64

        /// The public key of a 32-byte private key (seed).
        static func publicKey(seed: [UInt8]) -> [UInt8] {
            precondition(seed.count == keySize)
            // A 32-byte seed is always a valid Curve25519 private key.
            guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: seed) else { return [] }
            return Array(key.publicKey.rawRepresentation)
        }

        static func sign(_ message: [UInt8], seed: [UInt8]) -> [UInt8] {
            precondition(seed.count == keySize)
            guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: seed),
                let signature = try? key.signature(for: message)
            else { return [] }
            return Array(signature)
        }

        static func isValid(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
            guard signature.count == signatureSize,
                let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey)
            else { return false }
            return key.isValidSignature(signature, for: message)
        }
    }
#endif
