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
    private let headers: [(String, String)]
    private let state = Locked((connection: HTTPConnection.Cancellation?.none, cancelled: false))

    package init(url: URL, token: String) {
        self.url = url
        headers = [("Authorization", "Bearer \(token)"), ("Accept", "text/event-stream")]
    }

    /// Starts reading: `onEvent` for each event, then `onEnd` once.
    package func start(
        onEvent: @escaping @Sendable (_ name: String, _ data: String) -> Void,
        onEnd: @escaping @Sendable (End) -> Void
    ) {
        DetachedThread.start(name: "flowpkg.events") { [self] in onEnd(read(onEvent)) }
    }

    /// Closes the stream; `onEnd` still runs, from the reading thread.
    package func cancel() {
        state.withLock { state in
            state.cancelled = true
            return state.connection
        }?.cancel()
    }

    private func read(_ onEvent: @Sendable (String, String) -> Void) -> End {
        do {
            let connection = try HTTPConnection.get(url, headers: headers, timeout: 5, readTimeout: nil)
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
            var buffer: [UInt8] = []
            try connection.streamBody(head) { (piece) throws(HTTPConnection.Failure) in
                buffer.append(contentsOf: piece)
                while let end = Self.eventEnd(in: buffer) {
                    let text = String(decoding: buffer[..<end], as: UTF8.self)
                    buffer.removeFirst(end + 2)
                    var name = "message"
                    var data: [String] = []
                    for line in text.split(separator: "\n") {
                        if line.hasPrefix("event:") { name = String(line.dropFirst(6).drop(while: { $0 == " " })) }
                        if line.hasPrefix("data:") { data.append(String(line.dropFirst(5).drop(while: { $0 == " " }))) }
                    }
                    onEvent(name, data.joined(separator: "\n"))
                }
                if buffer.count > 1 << 22 { throw .malformed("an event larger than 4 MB") }
            }
            return .closed("the stream ended")
        } catch {
            switch error {
            case .unreachable(let reason), .malformed(let reason): return .closed(reason)
            }
        }
    }

    private static func eventEnd(in bytes: [UInt8]) -> Int? {
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == 0x0A, bytes[index + 1] == 0x0A { return index }
            index += 1
        }
        return nil
    }
}

/// One POST with a JSON body over a plain socket; the status and the answer's body.
package enum HTTPPost {
    package static func send(
        _ url: URL, token: String, body: [UInt8], timeout: TimeInterval = 5
    ) -> (status: Int, body: [UInt8])? {
        guard let host = url.host,
            let socket = try? PlainSocket.connect(host: host, port: url.port ?? 80, timeout: timeout)
        else { return nil }
        defer { socket.shutDown() }
        socket.setTimeouts(send: timeout, receive: timeout)
        var target = url.path.isEmpty ? "/" : url.path
        if let query = url.query { target += "?" + query }
        let hostHeader = url.port.map { "\(host):\($0)" } ?? host
        let head =
            "POST \(target) HTTP/1.1\r\nHost: \(hostHeader)\r\nAuthorization: Bearer \(token)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        guard (try? socket.send(Array(head.utf8) + body)) != nil else { return nil }
        let reader = SocketReader(socket, deadline: Date(timeIntervalSinceNow: timeout))
        guard let answer = try? reader.head() else { return nil }
        let parts = answer.startLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
        var bytes: [UInt8] = []
        if let length = answer.headers["content-length"].flatMap({ Int($0) }), length > 0, length < 1 << 20 {
            while bytes.count < length, let piece = try? reader.some(max: length - bytes.count) { bytes += piece }
        }
        return (status, bytes)
    }
}
