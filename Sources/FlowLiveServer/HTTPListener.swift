import FlowHTTP
import FlowPackage
import Foundation

/// One request the live server answers: a GET with its path, decoded query and headers.
struct LiveRequest: Sendable {
    var method: String
    /// The path as sent, before any `?`.
    var path: String
    /// The query's names and values, percent-decoded.
    var query: [String: String]
    /// Header values by lower-cased name.
    var headers: [String: String]
    /// `HTTP/1.0` or `HTTP/1.1`.
    var version: String
    /// Who asked: `127.0.0.1:51234`.
    var peer: String
    /// The body a POST sent (a program's report), at most `HTTPListener.maxBody` bytes.
    var body: [UInt8] = []
}

/// What the live server answers: bytes, or a stream of server-sent events.
struct LiveResponse: Sendable {
    enum Body: Sendable {
        case bytes([UInt8])
        case events(EventSubscription)
    }

    var status: Int
    var contentType: String
    var body: Body
}

/// A small HTTP/1.1 server over `PlainSocket`: one thread per connection, one request per
/// connection (`Connection: close`), GET only, with bounded request heads and deadlines.
///
/// A client has `timeout` in all to send its request head, however slowly it trickles in;
/// an event stream whose client has gone is noticed within a second (and a silent half-open
/// one by the heartbeat comment sent every `heartbeat` seconds), so dead clients do not hold
/// connection slots.
///
/// The live channel needs no more: a handful of GETs from one development host and one
/// long-lived event stream, on loopback by default. (A server library would do, but the ones
/// at hand bring FoundationNetworking, and with it libcurl's dependencies, into every
/// `flowpkg` process at start-up.)
final class HTTPListener: Sendable {
    /// How long a client may take to send its whole request head, and a send may wait for a
    /// slow reader.
    static let timeout: TimeInterval = 10
    /// Seconds between the comments that keep an idle event stream checked.
    static let heartbeat: TimeInterval = 15
    /// Connections served at once; more are closed as soon as they are accepted.
    static let maxConnections = 64
    /// The largest request body read (a program's report); a larger one is answered 413.
    static let maxBody = 1 << 20

    let port: UInt16
    private let socket: PlainSocket
    private let handler: @Sendable (LiveRequest) -> LiveResponse
    private struct Connections {
        var open: [ObjectIdentifier: PlainSocket] = [:]
        var stopped = false
    }

    private let connections = Locked(Connections())

    /// Binds and listens at once; `start()` then accepts connections.
    init(host: String, port: UInt16, handler: @escaping @Sendable (LiveRequest) -> LiveResponse) throws(PlainSocket
        .Failure)
    {
        socket = try PlainSocket.listen(host: host, port: port)
        self.port = socket.localPort ?? port
        self.handler = handler
    }

    func start() {
        Thread.detachNewThread { [self] in acceptConnections() }
    }

    /// Connections being served now, event streams included.
    var openConnections: Int { connections.withLock { $0.open.count } }

    /// Stops accepting and closes every open connection.
    func stop() {
        let open = connections.withLock { connections -> [PlainSocket] in
            connections.stopped = true
            return Array(connections.open.values)
        }
        socket.shutDown()
        for connection in open { connection.shutDown() }
    }

    private func acceptConnections() {
        while true {
            let client: PlainSocket, peer: String
            do {
                (client, peer) = try socket.accept()
            } catch {
                if error.isFatal || connections.withLock({ $0.stopped }) { return }
                // Out of descriptors or memory, or one connection failed: wait, then go on.
                Thread.sleep(forTimeInterval: 0.05)
                continue
            }
            let id = ObjectIdentifier(client)
            let accepted = connections.withLock { connections -> Bool? in
                if connections.stopped { return nil }
                if connections.open.count >= Self.maxConnections { return false }
                connections.open[id] = client
                return true
            }
            guard let accepted else { client.shutDown(); return }
            guard accepted else { client.shutDown(); continue }
            Thread.detachNewThread { [self] in
                serve(client, peer: peer)
                client.shutDown()
                connections.withLock { _ = $0.open.removeValue(forKey: id) }
            }
        }
    }

    private func serve(_ client: PlainSocket, peer: String) {
        client.setTimeouts(send: Self.timeout, receive: Self.timeout)
        let request: LiveRequest
        switch Self.readRequest(from: client, peer: peer, before: Date(timeIntervalSinceNow: Self.timeout)) {
        case .success(let parsed): request = parsed
        case .failure(let problem):
            guard let message = problem.message else { return }
            try? Self.write(Self.plainError(problem.status, message), to: client, version: "HTTP/1.1")
            client.finishSending()
            return
        }
        try? Self.write(handler(request), to: client, version: request.version)
        // Whatever the client sent beyond the head (a body) is read and dropped, so closing
        // does not reset the connection before the answer is read.
        client.finishSending(draining: 1 << 20, timeout: 1)
    }

    // MARK: Reading a request

    private struct RequestProblem: Error {
        /// What to answer with a 400; nil when the connection just went away.
        var message: String?
        var status = 400
    }

    private static func readRequest(from client: PlainSocket, peer: String, before deadline: Date)
        -> Result<LiveRequest, RequestProblem>
    {
        let head: SocketReader.Head
        let reader = SocketReader(client, deadline: deadline)
        do {
            head = try reader.head()
        } catch {
            guard case .malformed(let reason) = error else { return .failure(RequestProblem(message: nil)) }
            return .failure(RequestProblem(message: reason))
        }
        let parts = head.startLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1."), parts[1].hasPrefix("/") else {
            return .failure(RequestProblem(message: "not an HTTP/1.1 request line"))
        }
        let target = parts[1]
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        var query: [String: String] = [:]
        if let mark = target.firstIndex(of: "?") {
            for pair in target[target.index(after: mark)...].split(separator: "&") {
                let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = halves[0].removingPercentEncoding else { continue }
                query[name] = halves.count > 1 ? (halves[1].removingPercentEncoding ?? "") : ""
            }
        }
        var body: [UInt8] = []
        if let declared = head.headers["content-length"] {
            guard let length = Int(declared), length >= 0 else {
                return .failure(RequestProblem(message: "Content-Length is not a number"))
            }
            guard length <= maxBody else {
                return .failure(
                    RequestProblem(
                        message: "the body is \(length) bytes, more than \(maxBody) are refused", status: 413))
            }
            body.reserveCapacity(length)
            while body.count < length {
                guard let piece = try? reader.some(max: length - body.count) else {
                    return .failure(RequestProblem(message: nil))
                }
                body += piece
            }
        }
        return .success(
            LiveRequest(
                method: String(parts[0]), path: String(path), query: query, headers: head.headers,
                version: String(parts[2]), peer: peer, body: body))
    }

    // MARK: Writing a response

    private static func write(_ response: LiveResponse, to client: PlainSocket, version: String) throws(PlainSocket
        .Failure)
    {
        var head = "HTTP/1.1 \(response.status) \(reason(response.status))\r\nContent-Type: \(response.contentType)\r\n"
        head += "Connection: close\r\n"
        switch response.body {
        case .bytes(let bytes):
            head += "Content-Length: \(bytes.count)\r\n\r\n"
            try client.send(Array(head.utf8) + bytes)
        case .events(let subscription):
            defer { subscription.cancel() }
            // HTTP/1.0 knows no chunks: its stream simply ends when the connection closes.
            let chunked = version != "HTTP/1.0"
            head += "Cache-Control: no-cache\r\n" + (chunked ? "Transfer-Encoding: chunked\r\n" : "") + "\r\n"
            try client.send(Array(head.utf8))
            func send(_ bytes: [UInt8]) throws(PlainSocket.Failure) {
                guard !bytes.isEmpty else { return }  // an empty chunk would end the stream
                try client.send(
                    chunked ? Array("\(String(bytes.count, radix: 16))\r\n".utf8) + bytes + Array("\r\n".utf8) : bytes)
            }
            var lastSent = Date()
            while true {
                switch subscription.next(waitingAtMost: 1) {
                case .event(let event):
                    try send(event)
                    lastSent = Date()
                case .idle:
                    if client.isClosedByPeer { return }
                    if -lastSent.timeIntervalSinceNow >= heartbeat {
                        try send(Array(":\n\n".utf8))
                        lastSent = Date()
                    }
                case .finished:
                    if chunked { try client.send(Array("0\r\n\r\n".utf8)) }
                    return
                }
            }
        }
    }

    static func plainError(_ status: Int, _ message: String) -> LiveResponse {
        let body = (try? JSONEncoder.live.encode(["error": message])) ?? Data()
        return LiveResponse(status: status, contentType: "application/json", body: .bytes([UInt8](body)))
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 204: return "No Content"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 413: return "Content Too Large"
        default: return "Error"
        }
    }
}
