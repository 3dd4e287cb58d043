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

/// The second pass's reader: a thread that reads the inputs not kept in memory, in package
/// order, and hands their chunks to the writer through a bounded queue.
///
/// The writer thread deflates and writes while this one reads and hashes the next chunks, so
/// reading, hashing and compression overlap on two cores. Each file is hashed again as it is
/// read and compared with the first pass, so a file that changed in between fails the export
/// instead of producing a package whose manifest lies.
final class EntryFeed: Sendable {
    enum Item {
        case chunk([UInt8])
        case end
        case failure(PackageError)
    }

    private struct Queue {
        var items: [Item] = []
        var head = 0
        var queuedBytes = 0
        var abandoned = false
    }

    private let queue = Awaited(Queue())
    /// At most this many bytes wait in the queue; the reader blocks beyond it.
    private let capacity = 8 << 20

    /// Starts reading `entries` (with the sizes and hashes the first pass found) on a new thread.
    init(entries: [(PlannedEntry, HashedEntry)], cancellation: PackageCancellation?, output: String) {
        guard !entries.isEmpty else { return }
        DetachedThread.start(name: "flowpkg.package-feed") { [self] in
            for (entry, hashed) in entries {
                guard let item = self.stream(entry, expected: hashed, cancellation: cancellation, output: output) else {
                    return
                }
                if case .failure = item { _ = self.send(item); return }
                guard self.send(.end) else { return }
            }
        }
    }

    /// Reads one file into the queue; returns `.end` when it matched the first pass, a failure
    /// otherwise, or nil when the writer has gone away.
    private func stream(
        _ entry: PlannedEntry, expected: HashedEntry, cancellation: PackageCancellation?,
        output: String
    ) -> Item? {
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
            if total != expected.size || hasher.finalize().hexDigits != expected.sha256 {
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
        return queue.wait { queue -> Bool? in
            if queue.abandoned { return false }
            if queue.queuedBytes > 0, queue.queuedBytes + size > capacity { return nil }
            queue.items.append(item)
            queue.queuedBytes += size
            return true
        }
    }

    /// The next item, waiting for the reader when the queue is empty.
    func receive() -> Item {
        queue.wait { queue -> Item? in
            guard queue.head < queue.items.count else { return nil }
            let item = queue.items[queue.head]
            queue.head += 1
            if queue.head > 64, queue.head * 2 > queue.items.count {
                queue.items.removeFirst(queue.head)
                queue.head = 0
            }
            if case .chunk(let bytes) = item { queue.queuedBytes -= bytes.count }
            return item
        }
    }

    /// Tells the reader to stop: the writer failed or finished early.
    func abandon() {
        queue.withLock { $0.abandoned = true }
    }
}
