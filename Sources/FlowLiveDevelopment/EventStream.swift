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
            var events = EventBuffer()
            try connection.streamBody(head) { (piece) throws(HTTPConnection.Failure) in
                events.bytes.append(contentsOf: piece)
                deliverEvents(from: &events)
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

    private func deliverEvents(from events: inout EventBuffer) {
        while let event = events.next() {
            if event.name == "hello",
                let hello = try? JSONDecoder().decode([String: Int].self, from: Data(event.data.utf8)),
                let revision = hello["revision"]
            {
                onHello(revision)
                continue
            }
            guard event.name == LiveProtocol.changeEvent,
                let change = try? JSONDecoder().decode(LiveChange.self, from: Data(event.data.utf8))
            else { continue }
            onChange(change)
        }
    }

    private func end(_ reason: String) {
        let first = state.withLock { state -> Bool in
            defer { state.ended = true }
            return !state.ended
        }
        if first { onEnd(reason) }
    }

    /// The bytes read and not yet taken as events; the reading thread's own.
    private struct EventBuffer {
        var bytes: [UInt8] = []
        /// How far `bytes` has been searched for an event's end without finding one.
        var searched = 0

        /// Takes one complete event (up to a blank line) off the buffer.
        mutating func next() -> (name: String, data: String)? {
            guard let (end, next) = EventStream.eventEnd(in: bytes, from: searched) else {
                searched = max(0, bytes.count - 3)
                return nil
            }
            let text = String(decoding: bytes[..<end], as: UTF8.self)
            bytes.removeFirst(next)
            searched = 0
            return EventStream.parse(text)
        }
    }

    /// An event's name (`message` when it gives none) and its data lines, joined.
    private static func parse(_ text: String) -> (name: String, data: String) {
        var name = "message"
        var data: [String] = []
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.hasPrefix("event:") {
                name = line.dropFirst(6).trimmingSpaces()
            } else if line.hasPrefix("data:") {
                data.append(String(line.dropFirst(5).drop(while: { $0 == " " })))
            }
        }
        return (name, data.joined(separator: "\n"))
    }

    /// Where the first event in `bytes` ends (a blank line: `\n\n` or `\r\n\r\n`), searching
    /// from `start`: the end of its text and where the next event begins.
    static func eventEnd(in bytes: [UInt8], from start: Int) -> (end: Int, next: Int)? {
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == 0x0A {
                if bytes[index + 1] == 0x0A { return (index, index + 2) }
                if bytes[index + 1] == 0x0D, index + 2 < bytes.count, bytes[index + 2] == 0x0A {
                    return (index > 0 && bytes[index - 1] == 0x0D ? index - 1 : index, index + 3)
                }
            }
            index += 1
        }
        return nil
    }
}
