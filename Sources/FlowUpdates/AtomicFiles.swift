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

/// Files written whole or not at all: to a temporary name in the same folder, flushed, then
/// renamed over the target, so a reader sees the old file or the new one, never half of one.
enum AtomicFiles {
    static func write(_ bytes: [UInt8], to target: URL) throws(UpdateError) {
        let temporary = temporaryURL(beside: target)
        guard FileManager.default.createFile(atPath: temporary.path, contents: Data(bytes)) else {
            throw .store(
                path: target.path,
                reason: "cannot create \(temporary.lastPathComponent): \(String(cString: strerror(errno)))")
        }
        try moveIntoPlace(temporary, target)
    }

    /// Copies `source` to `target` through a temporary file and a rename.
    static func copy(_ source: URL, to target: URL) throws(UpdateError) {
        let temporary = temporaryURL(beside: target)
        do {
            try FileManager.default.copyItem(at: source, to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw .store(path: target.path, reason: "cannot copy \(source.path): \(failureReason(error))")
        }
        try moveIntoPlace(temporary, target)
    }

    /// Flushes `temporary` to disk and renames it to `target`; removes it on failure.
    static func moveIntoPlace(_ temporary: URL, _ target: URL) throws(UpdateError) {
        let descriptor = open(temporary.path, O_RDONLY | O_CLOEXEC)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
        if rename(temporary.path, target.path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw .store(path: target.path, reason: reason)
        }
    }

    static func temporaryURL(beside target: URL) -> URL {
        target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
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
