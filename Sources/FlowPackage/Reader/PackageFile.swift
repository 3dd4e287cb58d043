import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Facts about a package file as a whole, read without opening it as a package.
public enum PackageFile {
    /// The lowercase hex SHA-256 of the file's bytes (what `sha256sum` prints): it names this
    /// exact file, where the manifest's digest names its content.
    public static func sha256(at url: URL) throws -> String {
        try SHA256.hexOfFile(at: url.path).sha256
    }

    /// Whether the file starts as every `.luapkg` does: a zip whose first entry is
    /// `manifest.json`. Only the first local header is read, so this is cheap and says nothing
    /// about whether the package is sound; it tells a package from any other file.
    public static func startsWithManifest(at url: URL) -> Bool {
        guard let handle = try? ReadableFile(path: url.path) else { return false }
        let name = Array(Manifest.entryName.utf8)
        guard let bytes = try? handle.read(upTo: 30 + name.count), bytes.count == 30 + name.count else {
            return false
        }
        // A zip local file header: "PK\3\4", then the name's length at offset 26 and the name at 30.
        guard bytes[0..<4] == [0x50, 0x4B, 0x03, 0x04] else { return false }
        let nameLength = Int(bytes[26]) | Int(bytes[27]) << 8
        return nameLength == name.count && Array(bytes[30...]) == name
    }
}
