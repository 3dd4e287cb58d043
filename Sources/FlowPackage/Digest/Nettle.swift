// On Apple platforms CryptoKit does this instead (CryptoKit.swift beside this file), so an iOS
// host adds no Nettle build; everywhere else, Nettle.
#if !canImport(CryptoKit)
    import CNettle
    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif

    // FlowPackage hashes and signs through Nettle (a system library, as libarchive is) rather than
    // swift-crypto. An app's build compiles FlowpkgBuildPlugin's tool (FlowProject and everything
    // below it, FlowPackage included) a second time for the build machine, and swift-crypto brings
    // BoringSSL, some 360 C files: measured in Benchmarks/README.md (host_build), that copy was most
    // of what the plugin added to a cold build, and SwiftPM 6.3 compiles a plugin tool's C files again
    // on every build (its plugin-tools pass and the build proper rewrite the same objects), so a
    // rebuild with nothing changed recompiled BoringSSL twice. Nettle's Ed25519 is RFC 8032's, the
    // same keys and signatures as swift-crypto's Curve25519.Signing made (FlowPackageTests checks RFC
    // 8032's vectors). The other targets used swift-crypto only for SHA-256 and now hash through
    // this SHA256 too, so flowpkg links no swift-crypto: no BoringSSL in the binary (fewer
    // relocations and conformance records at start-up) nor in CI's build.

    /// SHA-256, fed in pieces: the subset of swift-crypto's `SHA256` flowpkg uses (FlowUpdates and
    /// the live targets hash through this one too, so no target links swift-crypto).
    package struct SHA256 {
        private var context = sha256_ctx()

        package init() { nettle_sha256_init(&context) }

        package mutating func update(bufferPointer bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            nettle_sha256_update(&context, bytes.count, base.assumingMemoryBound(to: UInt8.self))
        }

        package mutating func update<Bytes: ContiguousBytes>(data: Bytes) {
            data.withUnsafeBytes { update(bufferPointer: $0) }
        }

        /// The 32-byte digest of what was fed so far; the hasher is left as it was (Nettle's digest
        /// resets its context, so a copy is digested), as swift-crypto's `finalize()` does.
        package func finalize() -> [UInt8] {
            var copy = context
            var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_SIZE))
            nettle_sha256_digest(&copy, digest.count, &digest)
            return digest
        }

        package static func hash<Bytes: ContiguousBytes>(data: Bytes) -> [UInt8] {
            var hasher = SHA256()
            hasher.update(data: data)
            return hasher.finalize()
        }
    }

    /// Ed25519 (RFC 8032) over raw 32-byte keys and 64-byte signatures.
    enum Ed25519 {
        static let keySize = Int(ED25519_KEY_SIZE)
        static let signatureSize = Int(ED25519_SIGNATURE_SIZE)

        /// The public key of a 32-byte private key (seed).
        static func publicKey(seed: [UInt8]) -> [UInt8] {
            precondition(seed.count == keySize)
            var key = [UInt8](repeating: 0, count: keySize)
            nettle_ed25519_sha512_public_key(&key, seed)
            return key
        }

        static func sign(_ message: [UInt8], seed: [UInt8]) -> [UInt8] {
            precondition(seed.count == keySize)
            let key = publicKey(seed: seed)
            var signature = [UInt8](repeating: 0, count: signatureSize)
            nettle_ed25519_sha512_sign(key, seed, message.count, message, &signature)
            return signature
        }

        static func isValid(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
            guard signature.count == signatureSize, publicKey.count == keySize else { return false }
            return nettle_ed25519_sha512_verify(publicKey, message.count, message, signature) == 1
        }
    }
#endif
