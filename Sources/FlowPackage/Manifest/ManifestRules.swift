/// The rules of the manifest both of its readers apply, written once: `ManifestDecoder` (over
/// the JSON tree, any manifest) and `ManifestTable` (over the canonical bytes, the fast path),
/// and whatever else checks a digest the format wrote (FlowUpdates' store and downloads).
package enum ManifestRules {
    /// Whether `bytes` are a SHA-256 as the format writes it: 64 lowercase hex digits.
    package static func isSHA256<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        bytes.count == 64 && bytes.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Whether `text` is a SHA-256 as the format writes it: 64 lowercase hex digits.
    package static func isSHA256(_ text: String) -> Bool {
        isSHA256(text.utf8)
    }
}
