#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import FlowPackage
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport

/// Files written whole or not at all, through FlowSupport's `AtomicOutput` (as a package is
/// written): a temporary file beside the target, flushed, then renamed over it.
enum AtomicFiles {
    static func write(_ bytes: [UInt8], to target: URL) throws(UpdateError) {
        do {
            try AtomicOutput.write(bytes, to: target.path)
        } catch {
            throw .store(path: error.path, reason: error.reason)
        }
    }

    /// Copies `source` to `target` through a temporary file and a rename.
    static func copy(_ source: URL, to target: URL) throws(UpdateError) {
        let temporary = try output(beside: target)
        defer { temporary.removeIfLeft() }
        do {
            // copyItem makes its own file: the exclusive one AtomicOutput made goes first.
            unlink(temporary.path)
            try FileManager.default.copyItem(
                at: URL(fileURLWithPath: source.path), to: URL(fileURLWithPath: temporary.path))
        } catch {
            throw .store(path: target.path, reason: "cannot copy \(source.path): \(failureReason(error))")
        }
        try moveIntoPlace(temporary)
    }

    /// FlowSupport's `AtomicOutput` beside `target`, its failures as `UpdateError`.
    static func output(beside target: URL) throws(UpdateError) -> AtomicOutput {
        do {
            return try AtomicOutput(beside: target)
        } catch {
            throw .store(path: error.path, reason: error.reason)
        }
    }

    /// Flushes `temporary` to disk and renames it over its output.
    static func moveIntoPlace(_ temporary: AtomicOutput) throws(UpdateError) {
        do {
            try temporary.moveIntoPlace()
        } catch {
            throw .store(path: error.path, reason: error.reason)
        }
    }

    /// The lowercase hex SHA-256 and size of a file (FlowPackage's digest).
    static func sha256(of url: URL) throws(UpdateError) -> (sha256: String, size: Int64) {
        do {
            return try SHA256.hexOfFile(at: url.path)
        } catch {
            throw .store(path: url.path, reason: "cannot read it: \(failureReason(error))")
        }
    }
}
