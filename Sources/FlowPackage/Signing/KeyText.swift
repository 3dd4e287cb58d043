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

/// The one-line key file format shared by both key kinds.
enum KeyText {
    static let privateLabel = "flowpkg-ed25519-private-key"
    static let publicLabel = "flowpkg-ed25519-public-key"
    /// What a missing key file's error adds.
    static let missingHint = "no such file (flowpkg keygen NAME writes a pair: NAME.key signs, NAME.pub verifies)"

    /// The text of the key file at `url`; a missing file's error says how to make one.
    static func read(_ url: URL) throws(SigningKeyError) -> String {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw .unreadable(path: url.path, reason: missingHint)
        }
        do {
            let data = try Data(contentsOf: url)
            guard data.count <= 4096 else {
                throw SigningKeyError.malformed(
                    path: url.path, reason: "a key file is a few lines; this one is \(data.count) bytes")
            }
            return String(decoding: data, as: UTF8.self)
        } catch let error as SigningKeyError {
            throw error
        } catch {
            throw .unreadable(path: url.path, reason: failureReason(error))
        }
    }

    static func decode(_ text: String, label: String, path: String) throws(SigningKeyError) -> [UInt8] {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces() }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        guard lines.count == 1 else {
            throw .malformed(path: path, reason: "expected one line '\(label) BASE64' (made by flowpkg keygen)")
        }
        let parts = lines[0].split(separator: " ")
        guard parts.count == 2, parts[0] == label else {
            let other = label == privateLabel ? publicLabel : privateLabel
            if parts.first.map(String.init) == other {
                throw .malformed(
                    path: path,
                    reason: label == privateLabel
                        ? "this is a public key; signing needs the private key file"
                        : "this is a private key; give the public key file (.pub)")
            }
            throw .malformed(path: path, reason: "expected '\(label) BASE64' (made by flowpkg keygen)")
        }
        guard let data = Data(base64Encoded: String(parts[1])), data.count == 32 else {
            throw .malformed(path: path, reason: "the key is not 32 bytes of base64")
        }
        return Array(data)
    }
}
