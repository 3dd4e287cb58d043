import FlowSupport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// SHA-256 of bytes or of a file as lowercase hex (what `sha256sum` prints): the one place
/// flowpkg hashes a whole thing, on Nettle or CryptoKit alike. Streams hash as they go with
/// `SHA256` itself; hex is FlowSupport's `hexDigits`.
extension SHA256 {
    /// The lowercase hex SHA-256 of `bytes`.
    package static func hex<Bytes: ContiguousBytes>(of bytes: Bytes) -> String {
        hash(data: bytes).hexDigits
    }

    /// The lowercase hex SHA-256 and the size of the file at `path`, read in chunks of 1 MB.
    package static func hexOfFile(at path: String) throws -> (sha256: String, size: Int64) {
        let file = try ReadableFile(path: path)
        var hasher = SHA256()
        var size: Int64 = 0
        while case let chunk = try file.read(upTo: 1 << 20), !chunk.isEmpty {
            hasher.update(data: chunk)
            size += Int64(chunk.count)
        }
        return (hasher.finalize().hexDigits, size)
    }
}
