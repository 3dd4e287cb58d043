import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Dispatch
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
    /// Entries whose bytes the caller handed in (`inMemory`) are kept without counting.
    static func keptInMemory(sizes: [Int64], inMemory: [Bool]? = nil) -> [Bool] {
        var total: Int64 = 0
        return sizes.indices.map { index in
            let size = sizes[index]
            if inMemory?[index] == true { return true }
            guard size <= retainedFileLimit, total + size <= retainedBudget else { return false }
            total += size
            return true
        }
    }

    static func hashAll(
        _ entries: [PlannedEntry], keep: [Bool], progress: ProgressCounter,
        cancellation: PackageCancellation?, output: String
    ) throws(PackageError) -> [HashedEntry] {
        let state = HashingState(count: entries.count, output: output)
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 4, entries.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
            defer { buffer.deallocate() }
            while let index = state.claim() {
                do {
                    if cancellation?.isCancelled == true { throw PackageError.cancelled(path: output) }
                    state.store(
                        try hash(
                            entries[index], keep: keep[index], buffer: buffer, progress: progress,
                            cancellation: cancellation, output: output), at: index)
                } catch {
                    state.fail(
                        error as? PackageError
                            ?? .inputUnreadable(
                                file: entries[index].file.path, entry: entries[index].path, reason: "\(error)"))
                }
            }
        }
        return try state.results()
    }

    private static func hash(
        _ entry: PlannedEntry, keep: Bool, buffer: UnsafeMutableRawBufferPointer,
        progress: ProgressCounter, cancellation: PackageCancellation?,
        output: String
    ) throws(PackageError) -> HashedEntry {
        if let bytes = entry.contents {
            // Read once already (by validation): hashed and written as they are.
            progress.add(Int64(bytes.count))
            return HashedEntry(size: Int64(bytes.count), sha256: SHA256.hex(of: bytes), retained: bytes)
        }
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
            return HashedEntry(size: Int64(count), sha256: SHA256.hex(of: bytes), retained: bytes)
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
        return HashedEntry(size: total, sha256: hasher.finalize().hexDigits, retained: nil)
    }
}

/// Shared between the hashing workers: the next entry to take, the results, the first error.
private final class HashingState: Sendable {
    private struct State {
        var next = 0
        var hashed: [HashedEntry?]
        var error: PackageError?
    }

    private let count: Int
    /// The package being written, named if an entry was somehow left unhashed.
    private let output: String
    private let state: Locked<State>

    init(count: Int, output: String) {
        self.count = count
        self.output = output
        state = Locked(State(hashed: Array(repeating: nil, count: count)))
    }

    func claim() -> Int? {
        state.withLock { state in
            guard state.error == nil, state.next < count else { return nil }
            state.next += 1
            return state.next - 1
        }
    }

    func store(_ entry: HashedEntry, at index: Int) {
        state.withLock { $0.hashed[index] = entry }
    }

    func fail(_ failure: PackageError) {
        state.withLock { state in
            if state.error == nil { state.error = failure }
        }
    }

    func results() throws(PackageError) -> [HashedEntry] {
        try state.withLock { (state) throws(PackageError) -> [HashedEntry] in
            if let error = state.error { throw error }
            // With no error every claimed index was stored; an empty slot would be a bug, and
            // fails the write rather than the process.
            var entries: [HashedEntry] = []
            entries.reserveCapacity(state.hashed.count)
            for entry in state.hashed {
                guard let entry else {
                    throw .writeFailed(path: output, reason: "an input was left unhashed")
                }
                entries.append(entry)
            }
            return entries
        }
    }
}

/// Counts one phase's processed bytes from any thread and passes them to the caller's progress callback.
final class ProgressCounter: Sendable {
    /// Bytes done, and the count last reported.
    private let counts = Locked((done: Int64(0), reported: Int64(0)))
    let phase: PackageWriteProgress.Phase
    let total: Int64
    private let callback: (@Sendable (PackageWriteProgress) -> Void)?

    init(_ phase: PackageWriteProgress.Phase, total: Int64, callback: (@Sendable (PackageWriteProgress) -> Void)?) {
        self.phase = phase
        self.total = total
        self.callback = callback
    }

    func add(_ bytes: Int64) {
        guard let callback else { return }
        let (now, due) = counts.withLock { counts in
            counts.done += bytes
            // Report about every 1 MiB: often enough for a bar, rarely enough to cost nothing.
            let due = counts.done - counts.reported >= 1 << 20 || counts.done == total
            if due { counts.reported = counts.done }
            return (counts.done, due)
        }
        if due { callback(PackageWriteProgress(phase: phase, done: now, total: total)) }
    }
}
