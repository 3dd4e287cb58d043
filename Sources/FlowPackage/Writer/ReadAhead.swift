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

/// Reads every entry of at most `InputHashing.retainedFileLimit` bytes on worker threads,
/// ahead of the writer, so the writer (libarchive deflating on its own thread) never waits
/// for the disk.
///
/// An entry kept in memory by the first pass is used as is; another is read again here and
/// must match the first pass's size and SHA-256. Workers take entries in package order and
/// stop taking new ones while more than `budget` bytes of read entries wait for the writer,
/// so memory stays bounded. Larger entries are left to the writer, which streams them.
final class ReadAhead: Sendable {
    struct Result {
        /// The entry's bytes, checked against the first pass.
        var data: [UInt8]
    }

    /// Whether read-ahead handles an entry of this size (else the writer streams it).
    static func handles(size: Int64) -> Bool { size <= InputHashing.retainedFileLimit }

    private struct State {
        var next = 0
        var results: [Int: Result] = [:]
        var waitingBytes = 0
        var failure: (any Error)?
        var stopped = false
    }

    private let entries: [(entry: PlannedEntry, facts: HashedEntry)]
    private let state = Awaited(State())
    private let budget = 32 << 20

    init(entries: [(entry: PlannedEntry, facts: HashedEntry)], workers: Int) {
        self.entries = entries
        guard entries.contains(where: { Self.handles(size: $0.facts.size) }) else { return }
        for index in 0..<max(1, workers) {
            DetachedThread.start(name: "flowpkg.read-ahead-\(index)") { [self] in self.work() }
        }
    }

    /// The result for entry `index` (one the pool handles), waiting for it if needed.
    func result(at index: Int) throws -> Result {
        let outcome = state.wait { state -> Swift.Result<Result, any Error>? in
            if let result = state.results.removeValue(forKey: index) {
                state.waitingBytes -= result.data.count
                return .success(result)
            }
            if let failure = state.failure { return .failure(failure) }
            return nil
        }
        return try outcome.get()
    }

    /// Lets the workers go: the writer is done or gave up.
    func stop() {
        state.withLock { $0.stopped = true }
    }

    private func work() {
        do {
            while let index = claim() {
                let (entry, facts) = entries[index]
                let result = Result(data: try facts.retained ?? Self.reread(entry, expected: facts))
                state.withLock { state in
                    state.results[index] = result
                    state.waitingBytes += result.data.count
                }
            }
        } catch {
            state.withLock { state in
                if state.failure == nil { state.failure = error }
            }
        }
    }

    /// An entry's bytes read again, checked against what the first pass found.
    private static func reread(_ entry: PlannedEntry, expected: HashedEntry) throws(PackageError) -> [UInt8] {
        let file = try InputFile(entry.file, entry: entry.path)
        var bytes = [UInt8](repeating: 0, count: Int(expected.size) + 1)
        let count = try file.readFully(&bytes)
        bytes.removeLast(bytes.count - count)
        guard count == Int(expected.size), SHA256.hex(of: bytes) == expected.sha256 else {
            throw .inputChanged(file: entry.file.path, entry: entry.path)
        }
        return bytes
    }

    /// The next kept entry to work on, once the waiting results fit in the budget; nil at the end.
    private func claim() -> Int? {
        state.wait { state -> Int?? in
            if state.stopped || state.failure != nil { return .some(nil) }
            while state.next < entries.count, !Self.handles(size: entries[state.next].facts.size) { state.next += 1 }
            guard state.next < entries.count else { return .some(nil) }
            guard state.waitingBytes <= budget else { return nil }
            state.next += 1
            return .some(state.next - 1)
        }
    }
}
