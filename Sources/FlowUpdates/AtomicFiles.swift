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
        let temporary = try output(beside: target)
        defer { temporary.removeIfLeft() }
        guard FileManager.default.createFile(atPath: temporary.path, contents: Data(bytes)) else {
            throw .store(
                path: target.path,
                reason: "cannot write \(temporary.path): \(String(cString: strerror(errno)))")
        }
        try moveIntoPlace(temporary)
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

    /// The lowercase hex SHA-256 and size of a file, read in chunks.
    static func sha256(of url: URL) throws(UpdateError) -> (sha256: String, size: Int64) {
        guard let handle = try? ReadableFile(path: url.path) else {
            throw .store(path: url.path, reason: "cannot read it")
        }
        var hasher = SHA256()
        var size: Int64 = 0
        while true {
            // As FileHandle's readData(ofLength:) did, a read error ends the file here.
            let chunk = (try? handle.read(upTo: 1 << 20)) ?? []
            if chunk.isEmpty { break }
            hasher.update(data: chunk)
            size += Int64(chunk.count)
        }
        return (hex(hasher.finalize()), size)
    }

    static func hex<D: Sequence>(_ bytes: D) -> String where D.Element == UInt8 {
        bytes.hexDigits
    }
}
