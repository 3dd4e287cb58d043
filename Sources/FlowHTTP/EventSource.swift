import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A server-sent event stream read on a thread of its own, each event handed on by name and
/// data: what the debug channel's two ends read through `flowpkg serve`.
package final class EventSource: Sendable {
    /// Why the stream ended.
    package enum End: Sendable, Equatable {
        /// The server answered with another status than 200 (401: the token was refused).
        case refused(status: Int, message: String)
        case closed(String)
    }

    private let url: URL
    private let method: String
    private let body: [UInt8]
    private let headers: [(String, String)]
    private let state = Locked((connection: HTTPConnection.Cancellation?.none, cancelled: false))

    /// A stream from a GET of `url`; or from a POST of `body` (JSON), whose answer is the
    /// stream (`flowpkg test --live`'s run).
    package init(url: URL, token: String, posting body: [UInt8]? = nil) {
        self.url = url
        method = body == nil ? "GET" : "POST"
        self.body = body ?? []
        headers =
            [("Authorization", "Bearer \(token)"), ("Accept", "text/event-stream")]
            + (body == nil ? [] : [("Content-Type", "application/json")])
    }

    /// Starts reading: `onOpen` once the server answered 200, `onEvent` for each event, then
    /// `onEnd` once.
    package func start(
        onOpen: @escaping @Sendable () -> Void = {},
        onEvent: @escaping @Sendable (_ name: String, _ data: String) -> Void,
        onEnd: @escaping @Sendable (End) -> Void
    ) {
        DetachedThread.start(name: "flowpkg.events") { [self] in onEnd(read(onOpen, onEvent)) }
    }

    /// Closes the stream; `onEnd` still runs, from the reading thread.
    package func cancel() {
        state.withLock { state in
            state.cancelled = true
            return state.connection
        }?.cancel()
    }

    private func read(_ onOpen: @Sendable () -> Void, _ onEvent: @Sendable (String, String) -> Void) -> End {
        do {
            let connection = try HTTPConnection.send(
                method, url, headers: headers, body: body, timeout: 5, readTimeout: nil)
            let cancelled = state.withLock { state in
                state.connection = connection.cancellation
                return state.cancelled
            }
            if cancelled { connection.cancel() }
            let head = try connection.readHead()
            guard head.status == 200 else {
                let body = (try? connection.readBody(head, limit: 64 * 1024)) ?? []
                let message =
                    (try? JSONDecoder().decode([String: String].self, from: Data(body)))?["error"]
                    ?? String(decoding: body, as: UTF8.self)
                return .refused(status: head.status, message: message)
            }
            onOpen()
            var events = ServerSentEvents.Buffer()
            try connection.streamBody(head) { (piece) throws(HTTPConnection.Failure) in
                events.bytes.append(contentsOf: piece)
                while let event = events.next() { onEvent(event.name, event.data) }
                if events.bytes.count > 1 << 22 { throw .malformed("an event larger than 4 MB") }
            }
            return .closed("the stream ended")
        } catch {
            switch error {
            case .unreachable(let reason), .malformed(let reason): return .closed(reason)
            }
        }
    }
}
