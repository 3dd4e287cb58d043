import Crypto
import Foundation

/// The first pass of a write: every input read once and hashed, on all cores, because the
/// manifest (the archive's first entry) needs every size and SHA-256 before any entry is
/// written. Small files are kept in memory so the second pass does not read them again;
/// large ones are streamed in chunks, so memory stays flat however large a resource is.
enum InputHashing {
    /// Files up to this size are kept after hashing...
    static let retainedFileLimit: Int64 = 4 << 20
    /// ...while all of them together stay under this.
    static let retainedBudget: Int64 = 64 << 20
    static let chunkSize = 1 << 20

    /// Which entries to keep in memory, decided from their sizes in package order (never from
    /// which worker got there first), so the same project is always written the same way.
    static func keptInMemory(sizes: [Int64]) -> [Bool] {
        var total: Int64 = 0
        return sizes.map { size in
            guard size <= retainedFileLimit, total + size <= retainedBudget else { return false }
            total += size
            return true
        }
    }

    static func hashAll(_ entries: [PlannedEntry], keep: [Bool], progress: ProgressCounter,
                        cancellation: PackageCancellation?, output: String) throws(PackageError) -> [HashedEntry] {
        let state = HashingState(count: entries.count)
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 4, entries.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
            defer { buffer.deallocate() }
            while let index = state.claim() {
                do {
                    if cancellation?.isCancelled == true { throw PackageError.cancelled(path: output) }
                    state.store(try hash(entries[index], keep: keep[index], buffer: buffer, progress: progress,
                                         cancellation: cancellation, output: output), at: index)
                } catch {
                    state.fail(error as? PackageError ?? .inputUnreadable(file: entries[index].file.path, entry: entries[index].path, reason: "\(error)"))
                }
            }
        }
        return try state.results()
    }

    private static func hash(_ entry: PlannedEntry, keep: Bool, buffer: UnsafeMutableRawBufferPointer,
                             progress: ProgressCounter, cancellation: PackageCancellation?,
                             output: String) throws(PackageError) -> HashedEntry {
        let file = try InputFile(entry.file, entry: entry.path)
        if keep {
            // Read one byte past the stated size, so a file that grew since `stat` is seen whole.
            var bytes = [UInt8](repeating: 0, count: Int(file.size) + 1)
            var count = try file.readFully(&bytes)
            if count == bytes.count {
                // It grew: fall back to reading the rest in chunks.
                while true {
                    let more = try file.read(into: buffer)
                    if more == 0 { break }
                    bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<more]))
                    count += more
                }
            } else {
                bytes.removeLast(bytes.count - count)
            }
            progress.add(Int64(count))
            return HashedEntry(size: Int64(count), sha256: hexString(SHA256.hash(data: bytes)), retained: bytes)
        }
        var hasher = SHA256()
        var total: Int64 = 0
        while true {
            if cancellation?.isCancelled == true { throw .cancelled(path: output) }
            let count = try file.read(into: buffer)
            if count == 0 { break }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            total += Int64(count)
            progress.add(Int64(count))
        }
        return HashedEntry(size: total, sha256: hexString(hasher.finalize()), retained: nil)
    }
}

/// Shared between the hashing workers: the next entry to take, the results, the first error.
private final class HashingState: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private let count: Int
    private var hashed: [HashedEntry?]
    private var error: PackageError?

    init(count: Int) {
        self.count = count
        hashed = Array(repeating: nil, count: count)
    }

    func claim() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard error == nil, next < count else { return nil }
        next += 1
        return next - 1
    }

    func store(_ entry: HashedEntry, at index: Int) {
        lock.lock()
        hashed[index] = entry
        lock.unlock()
    }

    func fail(_ failure: PackageError) {
        lock.lock()
        if error == nil { error = failure }
        lock.unlock()
    }

    func results() throws(PackageError) -> [HashedEntry] {
        lock.lock()
        defer { lock.unlock() }
        if let error { throw error }
        return hashed.map { $0! }
    }
}

/// Counts processed bytes from any thread and passes them to the caller's progress callback.
final class ProgressCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var done: Int64 = 0
    private var reported: Int64 = 0
    let total: Int64
    private let callback: (@Sendable (Int64, Int64) -> Void)?

    init(total: Int64, callback: (@Sendable (Int64, Int64) -> Void)?) {
        self.total = total
        self.callback = callback
    }

    func add(_ bytes: Int64) {
        guard let callback else { return }
        lock.lock()
        done += bytes
        // Report about every 1 MiB: often enough for a bar, rarely enough to cost nothing.
        let now = done
        let due = now - reported >= 1 << 20 || now == total
        if due { reported = now }
        lock.unlock()
        if due { callback(now, total) }
    }
}
