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

/// Reads the live source's server-sent events on a thread of its own and decodes each
/// `hello` and `change` event.
///
/// Events end at a blank line (LF or CRLF line ends); one larger than `maxEventBytes` ends the
/// stream, so a broken source cannot fill memory.
final class EventStream: Sendable {
    static let maxEventBytes = 1 << 20

    private let url: URL
    private let headers: [(String, String)]
    private let connectTimeout: TimeInterval
    private let onChange: @Sendable (LiveChange) -> Void
    private let onHello: @Sendable (Int) -> Void
    private let onEnd: @Sendable (String) -> Void
    private let state = Locked((connection: HTTPConnection.Cancellation?.none, cancelled: false, ended: false))

    init(
        url: URL, headers: [(String, String)], connectTimeout: TimeInterval,
        onHello: @escaping @Sendable (Int) -> Void, onChange: @escaping @Sendable (LiveChange) -> Void,
        onEnd: @escaping @Sendable (String) -> Void
    ) {
        self.url = url
        self.headers = headers + [("Accept", "text/event-stream")]
        self.connectTimeout = connectTimeout
        self.onHello = onHello
        self.onChange = onChange
        self.onEnd = onEnd
    }

    func start() {
        DetachedThread.start { [self] in read() }
    }

    /// Closes the stream; `onEnd` still runs once, from the reading thread.
    func cancel() {
        let connection = state.withLock { state -> HTTPConnection.Cancellation? in
            state.cancelled = true
            return state.connection
        }
        connection?.cancel()
    }

    private func read() {
        do {
            // Events come when the developer saves a file: a read may wait for hours.
            let connection = try HTTPConnection.get(url, headers: headers, timeout: connectTimeout, readTimeout: nil)
            let wasCancelled = state.withLock { state -> Bool in
                state.connection = connection.cancellation
                return state.cancelled
            }
            if wasCancelled { connection.cancel() }
            let head = try connection.readHead()
            guard head.status == 200 else {
                end(
                    head.status == 401
                        ? "the live source rejected the token" : "the live source answered \(head.status)")
                return
            }
            var events = ServerSentEvents.Buffer()
            try connection.streamBody(head) { (piece) throws(HTTPConnection.Failure) in
                events.bytes.append(contentsOf: piece)
                try deliverEvents(from: &events)
                if events.bytes.count > Self.maxEventBytes {
                    throw .malformed("an event is larger than \(Self.maxEventBytes) bytes")
                }
            }
            end("the live source closed the stream")
        } catch {
            switch error {
            case .unreachable(let reason), .malformed(let reason):
                end("connection to the live source lost: \(reason)")
            }
        }
    }

    /// Hands on every complete event. A change event that does not decode (a bad module or
    /// resource name, say) ends the stream with the reason: nothing of it is applied, and the
    /// reconnection starts again from the manifest.
    private func deliverEvents(from events: inout ServerSentEvents.Buffer) throws(HTTPConnection.Failure) {
        while let event = events.next() {
            if event.name == "hello",
                let hello = try? JSONDecoder().decode([String: Int].self, from: Data(event.data.utf8)),
                let revision = hello["revision"]
            {
                onHello(revision)
                continue
            }
            guard event.name == LiveProtocol.changeEvent else { continue }
            let change: LiveChange
            do {
                change = try JSONDecoder().decode(LiveChange.self, from: Data(event.data.utf8))
            } catch {
                throw .malformed("a change event does not decode: \(Self.reason(error))")
            }
            onChange(change)
        }
    }

    /// What is wrong with a change event, in words.
    static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.typeMismatch(_, let context),
            DecodingError.valueNotFound(_, let context):
            return context.debugDescription
        case DecodingError.keyNotFound(let key, _): return "'\(key.stringValue)' is missing"
        default: return "\(error)"
        }
    }

    private func end(_ reason: String) {
        let first = state.withLock { state -> Bool in
            defer { state.ended = true }
            return !state.ended
        }
        if first { onEnd(reason) }
    }
}
