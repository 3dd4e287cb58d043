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
