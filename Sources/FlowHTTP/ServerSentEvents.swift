import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One server-sent event stream's queue: a broadcaster adds events, the connection's thread
/// takes them and `HTTPServer` writes them (chunked, with a heartbeat comment when idle).
///
/// A client that falls `capacity` events behind is not sent a stream with holes in it: its
/// stream ends, and the client's reconnection catches up from the manifest.
package final class EventSubscription: Sendable {
    package static let capacity = 256

    package enum Next: Equatable {
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

    package init(onCancel: @escaping @Sendable (EventSubscription) -> Void) {
        self.onCancel = onCancel
    }

    package func yield(_ event: [UInt8]) {
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
    package func finish() {
        queue.withLock { $0.finished = true }
    }

    /// The next event, waiting at most `seconds` for one.
    package func next(waitingAtMost seconds: TimeInterval) -> Next {
        let next = queue.wait(
            until: { queue -> Next? in
                if !queue.events.isEmpty { return .event(queue.events.removeFirst()) }
                return queue.finished ? .finished : nil
            }, deadline: Date(timeIntervalSinceNow: seconds))
        return next ?? .idle
    }

    /// The client is gone: no more events are queued for it.
    package func cancel() {
        finish()
        onCancel(self)
    }
}
