import FlowLiveProtocol
import Foundation

/// Fans changes out to every open event stream, as server-sent events.
final class EventBroadcaster: @unchecked Sendable {
    private let lock = NSLock()
    private var subscribers: [ObjectIdentifier: EventSubscription] = [:]
    private var closed = false

    /// A new subscription that starts with a `hello` event naming the current revision; one
    /// already finished once `finishAll()` has run (the server is stopping).
    func subscribe(revision: Int) -> EventSubscription {
        let subscription = EventSubscription { [weak self] subscription in
            guard let self else { return }
            lock.withLock { _ = subscribers.removeValue(forKey: ObjectIdentifier(subscription)) }
        }
        subscription.yield(Array("event: hello\ndata: {\"revision\":\(revision)}\n\n".utf8))
        let open = lock.withLock { () -> Bool in
            if !closed { subscribers[ObjectIdentifier(subscription)] = subscription }
            return !closed
        }
        if !open { subscription.finish() }
        return subscription
    }

    /// Sends one change to every subscriber; returns how many there were.
    @discardableResult
    func send(_ change: LiveChange) -> Int {
        let json = (try? JSONEncoder.live.encode(change)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let bytes = Array("event: \(LiveProtocol.changeEvent)\ndata: \(json)\n\n".utf8)
        let targets = lock.withLock { Array(subscribers.values) }
        for subscription in targets { subscription.yield(bytes) }
        return targets.count
    }

    func finishAll() {
        let targets = lock.withLock { () -> [EventSubscription] in
            closed = true
            return Array(subscribers.values)
        }
        for subscription in targets { subscription.finish() }
    }
}

/// One event stream's queue: the broadcaster adds events, the connection's thread takes them.
///
/// A client that falls `capacity` events behind is not sent a stream with holes in it: its
/// stream ends, and the client's reconnection catches up from the manifest.
final class EventSubscription: @unchecked Sendable {
    static let capacity = 256

    enum Next: Equatable {
        case event([UInt8])
        /// Nothing came within the wait.
        case idle
        /// Finished and drained.
        case finished
    }

    private let condition = NSCondition()
    private var queue: [[UInt8]] = []
    private var finished = false
    private let onCancel: @Sendable (EventSubscription) -> Void

    init(onCancel: @escaping @Sendable (EventSubscription) -> Void) {
        self.onCancel = onCancel
    }

    func yield(_ event: [UInt8]) {
        condition.withLock {
            guard !finished else { return }
            if queue.count >= Self.capacity {
                finished = true
                condition.broadcast()
                return
            }
            queue.append(event)
            condition.signal()
        }
    }

    /// Ends the stream once what is queued has been taken.
    func finish() {
        condition.withLock {
            finished = true
            condition.broadcast()
        }
    }

    /// The next event, waiting at most `seconds` for one.
    func next(waitingAtMost seconds: TimeInterval) -> Next {
        condition.withLock {
            let deadline = Date(timeIntervalSinceNow: seconds)
            while queue.isEmpty && !finished {
                if !condition.wait(until: deadline) { break }
            }
            if !queue.isEmpty { return .event(queue.removeFirst()) }
            return finished ? .finished : .idle
        }
    }

    /// The client is gone: no more events are queued for it.
    func cancel() {
        finish()
        onCancel(self)
    }
}
