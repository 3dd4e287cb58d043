import ArgumentParser
import FlowPackage
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Key files named on the command line, read and checked before any work starts.
enum SigningOptions {
    /// The private key at `path`; an unusable key file is an error (exit 1) naming it.
    static func loadKey(_ path: String?) throws -> PackageSigningKey? {
        guard let path else { return nil }
        do {
            return try PackageSigningKey(contentsOf: URL(fileURLWithPath: path))
        } catch {
            StandardStream.error.write("error: \(error)\n")
            throw ExitCode.failure
        }
    }

    /// The public key at `path`; an unusable key file is an error (exit 1) naming it.
    static func loadPublicKey(_ path: String?) throws -> PackagePublicKey? {
        guard let path else { return nil }
        do {
            return try PackagePublicKey(contentsOf: URL(fileURLWithPath: path))
        } catch {
            StandardStream.error.write("error: \(error)\n")
            throw ExitCode.failure
        }
    }

    /// The package's signature against `trusted`, as problems on `manifest.sig` (none when trusted).
    static func signatureProblems(_ url: URL, trusted: PackagePublicKey) -> [PackageProblem] {
        let reader: PackageReader
        do { reader = try PackageReader(contentsOf: url) } catch {
            return [PackageProblem(.packageUnreadable, entry: nil, message: "\(error)")]
        }
        let status = reader.signatureStatus(trustedKeys: [trusted])
        if status.isTrusted { return [] }
        return [PackageProblem(.untrustedSignature, entry: PackageSignature.entryName, message: status.description)]
    }
}
