import FlowLoader
import Foundation

/// Fans changes out to every open event stream, as server-sent events.
final class EventBroadcaster: @unchecked Sendable {
    private let lock = NSLock()
    private var subscribers: [ObjectIdentifier: EventSubscription] = [:]

    /// A new subscription that starts with a `hello` event naming the current revision.
    func subscribe(revision: Int) -> EventSubscription {
        let subscription = EventSubscription { [weak self] subscription in
            guard let self else { return }
            lock.withLock { _ = subscribers.removeValue(forKey: ObjectIdentifier(subscription)) }
        }
        subscription.yield(Array("event: hello\ndata: {\"revision\":\(revision)}\n\n".utf8))
        lock.withLock { subscribers[ObjectIdentifier(subscription)] = subscription }
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
        let targets = lock.withLock { Array(subscribers.values) }
        for subscription in targets { subscription.finish() }
    }
}

/// One event stream's queue: the broadcaster adds events, the connection's thread takes them.
/// Keeps the newest 256 when a client reads slower than changes come.
final class EventSubscription: @unchecked Sendable {
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
            queue.append(event)
            if queue.count > 256 { queue.removeFirst(queue.count - 256) }
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

    /// The next event, waiting for one; nil once finished and drained.
    func next() -> [UInt8]? {
        condition.withLock {
            while queue.isEmpty && !finished { condition.wait() }
            return queue.isEmpty ? nil : queue.removeFirst()
        }
    }

    /// The client is gone: no more events are queued for it.
    func cancel() {
        finish()
        onCancel(self)
    }
}
