import Crypto
import Foundation

/// The second pass's reader: a thread that reads the inputs not kept in memory, in package
/// order, and hands their chunks to the writer through a bounded queue.
///
/// The writer thread deflates and writes while this one reads and hashes the next chunks, so
/// reading, hashing and compression overlap on two cores. Each file is hashed again as it is
/// read and compared with the first pass, so a file that changed in between fails the export
/// instead of producing a package whose manifest lies.
final class EntryFeed: @unchecked Sendable {
    enum Item {
        case chunk([UInt8])
        case end
        case failure(PackageError)
    }

    private let condition = NSCondition()
    private var queue: [Item] = []
    private var head = 0
    private var queuedBytes = 0
    private var abandoned = false
    /// At most this many bytes wait in the queue; the reader blocks beyond it.
    private let capacity = 8 << 20

    /// Starts reading `entries` (with the sizes and hashes the first pass found) on a new thread.
    init(entries: [(PlannedEntry, HashedEntry)], cancellation: PackageCancellation?, output: String) {
        guard !entries.isEmpty else { return }
        let thread = Thread { [self] in
            for (entry, hashed) in entries {
                guard let item = self.stream(entry, expected: hashed, cancellation: cancellation, output: output) else { return }
                if case .failure = item { _ = self.send(item); return }
                guard self.send(.end) else { return }
            }
        }
        thread.name = "flowpkg.package-feed"
        thread.start()
    }

    /// Reads one file into the queue; returns `.end` when it matched the first pass, a failure
    /// otherwise, or nil when the writer has gone away.
    private func stream(_ entry: PlannedEntry, expected: HashedEntry, cancellation: PackageCancellation?,
                        output: String) -> Item? {
        do throws(PackageError) {
            let file = try InputFile(entry.file, entry: entry.path)
            var hasher = SHA256()
            var total: Int64 = 0
            while true {
                if cancellation?.isCancelled == true { return .failure(.cancelled(path: output)) }
                // One byte past the expected size is enough to tell that the file grew.
                let want = Int(min(Int64(InputHashing.chunkSize), expected.size - total + 1))
                var chunk = [UInt8](repeating: 0, count: want)
                let count = try file.readFully(&chunk)
                if count == 0 { break }
                total += Int64(count)
                if total > expected.size { return .failure(.inputChanged(file: entry.file.path, entry: entry.path)) }
                chunk.removeLast(want - count)
                chunk.withUnsafeBytes { hasher.update(bufferPointer: $0) }
                guard send(.chunk(chunk)) else { return nil }
                if count < want { break }
            }
            if total != expected.size || hexString(hasher.finalize()) != expected.sha256 {
                return .failure(.inputChanged(file: entry.file.path, entry: entry.path))
            }
            return .end
        } catch {
            return .failure(error)
        }
    }

    /// Queues `item`, waiting while the queue is full; false once the writer has gone away.
    private func send(_ item: Item) -> Bool {
        let size: Int
        if case .chunk(let bytes) = item { size = bytes.count } else { size = 0 }
        condition.lock()
        defer { condition.unlock() }
        while !abandoned, queuedBytes > 0, queuedBytes + size > capacity { condition.wait() }
        if abandoned { return false }
        queue.append(item)
        queuedBytes += size
        condition.broadcast()
        return true
    }

    /// The next item, waiting for the reader when the queue is empty.
    func receive() -> Item {
        condition.lock()
        defer { condition.unlock() }
        while head == queue.count { condition.wait() }
        let item = queue[head]
        head += 1
        if head > 64, head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
        if case .chunk(let bytes) = item { queuedBytes -= bytes.count }
        condition.broadcast()
        return item
    }

    /// Tells the reader to stop: the writer failed or finished early.
    func abandon() {
        condition.lock()
        abandoned = true
        condition.broadcast()
        condition.unlock()
    }
}
