import FlowHTTP
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
///
/// It keeps the revision of the last change it sent, and a new subscription learns that
/// revision (its `hello` event) under the same lock a change is sent under: a change is
/// either sent to the new subscription or already counted in its `hello`, never neither. A
/// client whose manifest is older than its `hello` loads what differs (LiveSession's catch-up).
final class EventBroadcaster: Sendable {
    private struct Subscribers {
        var open: [ObjectIdentifier: EventSubscription] = [:]
        var closed = false
        /// The revision of the last change sent (the project's first scan's before any).
        var revision: Int
    }

    private let subscribers: Locked<Subscribers>
    /// Runs as a subscription starts, before it learns the revision (tests save a file there,
    /// in the window between a client's request and its subscription).
    private let beforeSubscribing = Locked<(@Sendable () -> Void)?>(nil)

    /// - Parameter revision: the revision the project has before any change is sent.
    init(revision: Int) {
        subscribers = Locked(Subscribers(revision: revision))
    }

    /// Sets what runs as each subscription starts, before it learns the revision.
    func runBeforeSubscribing(_ hook: (@Sendable () -> Void)?) {
        beforeSubscribing.withLock { $0 = hook }
    }

    /// A new subscription that starts with a `hello` event naming the revision of the last
    /// change sent; one already finished once `finishAll()` has run (the server is stopping).
    func subscribe() -> EventSubscription {
        beforeSubscribing.withLock { $0 }?()
        let subscription = EventSubscription { [weak self] subscription in
            guard let self else { return }
            subscribers.withLock { _ = $0.open.removeValue(forKey: ObjectIdentifier(subscription)) }
        }
        // The hello goes in while the lock is held, so no change can come before it.
        let open = subscribers.withLock { subscribers -> Bool in
            subscription.yield(Array("event: hello\ndata: {\"revision\":\(subscribers.revision)}\n\n".utf8))
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
        // Queued under the lock (a subscription's queue only appends): a subscription made
        // at the same moment gets this change or a hello that counts it.
        return subscribers.withLock { subscribers -> Int in
            subscribers.revision = max(subscribers.revision, change.revision)
            for subscription in subscribers.open.values { subscription.yield(bytes) }
            return subscribers.open.count
        }
    }

    func finishAll() {
        let targets = subscribers.withLock { subscribers -> [EventSubscription] in
            subscribers.closed = true
            return Array(subscribers.open.values)
        }
        for subscription in targets { subscription.finish() }
    }
}
