import FlowLoader
import FlyingSocks
import Foundation

/// Fans changes out to every open event stream, as server-sent events.
final class EventBroadcaster: @unchecked Sendable {
    private let lock = NSLock()
    private var subscribers: [UUID: AsyncStream<[UInt8]>.Continuation] = [:]

    /// A new stream that starts with a `hello` event naming the current revision.
    func subscribe(revision: Int) -> AsyncStream<[UInt8]> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .bufferingNewest(256))
        continuation.yield(Array("event: hello\ndata: {\"revision\":\(revision)}\n\n".utf8))
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            lock.withLock { _ = subscribers.removeValue(forKey: id) }
        }
        lock.withLock { subscribers[id] = continuation }
        return stream
    }

    /// Sends one change to every subscriber; returns how many there were.
    @discardableResult
    func send(_ change: LiveChange) -> Int {
        let json = (try? JSONEncoder.live.encode(change)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let bytes = Array("event: \(LiveProtocol.changeEvent)\ndata: \(json)\n\n".utf8)
        let targets = lock.withLock { Array(subscribers.values) }
        for continuation in targets { continuation.yield(bytes) }
        return targets.count
    }

    func finishAll() {
        let targets = lock.withLock { Array(subscribers.values) }
        for continuation in targets { continuation.finish() }
    }
}

/// Adapts a stream of byte chunks to the buffered sequence FlyingFox streams a body from.
struct EventBytes: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8
    let stream: AsyncStream<[UInt8]>

    func makeAsyncIterator() -> Iterator { Iterator(base: stream.makeAsyncIterator()) }

    struct Iterator: AsyncBufferedIteratorProtocol {
        var base: AsyncStream<[UInt8]>.AsyncIterator
        var pending: ArraySlice<UInt8> = []

        mutating func next() async -> UInt8? {
            await nextBuffer(suggested: 1)?.first
        }

        mutating func nextBuffer(suggested count: Int) async -> [UInt8]? {
            while pending.isEmpty {
                guard let chunk = await base.next() else { return nil }
                pending = chunk[...]
            }
            let taken = pending.prefix(Swift.max(count, 1))
            pending = pending.dropFirst(taken.count)
            return Array(taken)
        }
    }
}
