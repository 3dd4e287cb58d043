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
