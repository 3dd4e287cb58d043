import FlowLiveProtocol
import FlowPackage
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

/// Fans changes out to every open event stream, as server-sent events.
final class EventBroadcaster: Sendable {
    private struct Subscribers {
        var open: [ObjectIdentifier: EventSubscription] = [:]
        var closed = false
    }

    private let subscribers = Locked(Subscribers())

    /// A new subscription that starts with a `hello` event naming the current revision; one
    /// already finished once `finishAll()` has run (the server is stopping).
    func subscribe(revision: Int) -> EventSubscription {
        let subscription = EventSubscription { [weak self] subscription in
            guard let self else { return }
            subscribers.withLock { _ = $0.open.removeValue(forKey: ObjectIdentifier(subscription)) }
        }
        subscription.yield(Array("event: hello\ndata: {\"revision\":\(revision)}\n\n".utf8))
        let open = subscribers.withLock { subscribers -> Bool in
            if !subscribers.closed { subscribers.open[ObjectIdentifier(subscription)] = subscription }
            return !subscribers.closed
        }
        if !open { subscription.finish() }
        return subscription
    }

    /// Sends one change to every subscriber; returns how many there were.
    @discardableResult
    func send(_ change: LiveChange) -> Int {
        let json = (try? JSONEncoder.live.encode(change)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let bytes = Array("event: \(LiveProtocol.changeEvent)\ndata: \(json)\n\n".utf8)
        let targets = subscribers.withLock { Array($0.open.values) }
        for subscription in targets { subscription.yield(bytes) }
        return targets.count
    }

    func finishAll() {
        let targets = subscribers.withLock { subscribers -> [EventSubscription] in
            subscribers.closed = true
            return Array(subscribers.open.values)
        }
        for subscription in targets { subscription.finish() }
    }
}

/// One event stream's queue: the broadcaster adds events, the connection's thread takes them.
///
/// A client that falls `capacity` events behind is not sent a stream with holes in it: its
/// stream ends, and the client's reconnection catches up from the manifest.
final class EventSubscription: Sendable {
    static let capacity = 256

    enum Next: Equatable {
        case event([UInt8])
        /// Nothing came within the wait.
        case idle
        /// Finished and drained.
        case finished
    }

    private struct Queue {
        var events: [[UInt8]] = []
        var finished = false
    }

    private let queue = Awaited(Queue())
    private let onCancel: @Sendable (EventSubscription) -> Void

    init(onCancel: @escaping @Sendable (EventSubscription) -> Void) {
        self.onCancel = onCancel
    }

    func yield(_ event: [UInt8]) {
        queue.withLock { queue in
            guard !queue.finished else { return }
            if queue.events.count >= Self.capacity {
                queue.finished = true
                return
            }
            queue.events.append(event)
        }
    }

    /// Ends the stream once what is queued has been taken.
    func finish() {
        queue.withLock { $0.finished = true }
    }

    /// The next event, waiting at most `seconds` for one.
    func next(waitingAtMost seconds: TimeInterval) -> Next {
        let next = queue.wait(
            until: { queue -> Next? in
                if !queue.events.isEmpty { return .event(queue.events.removeFirst()) }
                return queue.finished ? .finished : nil
            }, deadline: Date(timeIntervalSinceNow: seconds))
        return next ?? .idle
    }

    /// The client is gone: no more events are queued for it.
    func cancel() {
        finish()
        onCancel(self)
    }
}
