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

/// One request the server answers: its method, path, decoded query, headers and body.
package struct HTTPRequest: Sendable {
    package var method: String
    /// The path as sent, before any `?`.
    package var path: String
    /// The query's names and values, percent-decoded.
    package var query: [String: String]
    /// Header values by lower-cased name.
    package var headers: [String: String]
    /// `HTTP/1.0` or `HTTP/1.1`.
    package var version: String
    /// Who asked: `127.0.0.1:51234`.
    package var peer: String
    /// The body a POST sent (a program's report), at most `HTTPServer.maxBody` bytes.
    package var body: [UInt8] = []
    /// What the server's `isAuthorized` said of this request, asked once when its head came
    /// in (it chose the request's budget): the handler reads this, never asks again.
    package var isAuthorized = false

    package init(
        method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
        version: String = "HTTP/1.1", peer: String = "", body: [UInt8] = []
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.version = version
        self.peer = peer
        self.body = body
    }
}

/// What the server answers: bytes, or a stream of server-sent events.
package struct HTTPResponse: Sendable {
    package enum Body: Sendable {
        case bytes([UInt8])
        case events(EventSubscription)
    }

    package var status: Int
    package var contentType: String
    package var body: Body
    /// For an error answer made by `error(_:_:)`: its message, as a log shows it (the body
    /// is that message in JSON, not decoded again to be logged).
    package var errorMessage: String?
    /// More header lines, written in order after `Content-Type` (`Cache-Control`,
    /// `Content-Security-Policy`); a name or value holding a line break is not written.
    package var headers: [(name: String, value: String)] = []

    package init(status: Int, contentType: String, body: Body) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }

    /// An error answer: `{"error": message}`.
    package static func error(_ status: Int, _ message: String) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let body = (try? encoder.encode(["error": message])) ?? Data()
        var response = HTTPResponse(status: status, contentType: "application/json", body: .bytes([UInt8](body)))
        response.errorMessage = message
        return response
    }
}

/// A small HTTP/1.1 server over `PlainSocket`: one request per connection (`Connection:
/// close`), GET only, with bounded request heads and deadlines, and separate budgets for
/// clients that hold the token and clients that do not.
///
/// One thread accepts connections and reads every request head over non-blocking sockets
/// (`PendingConnections`): until its head is in, a connection costs a descriptor, never a
/// thread, it has `headerTimeout` in all to send the head however slowly it trickles, and the
/// oldest is closed when too many wait. A complete request then gets a thread of its own from
/// one of three budgets: requests with the token, requests without it (answered 401, or 400
/// when malformed), and event streams (a new one ends the oldest). So idle sockets, trickled
/// heads and floods of connections without the token cannot take what the token holder needs.
///
/// An event stream whose client has gone is noticed within a second (and a silent half-open
/// one by the heartbeat comment sent every `heartbeat` seconds).
///
/// The live channel (FlowLiveServer) needs no more: a handful of requests from development
/// hosts and long-lived event streams, on loopback by default. swift-nio's HTTP server was
/// measured against it (Benchmarks/README.md, "HTTP layer"): as fast within the budget, but
/// 4.7 MB more binary, a little more at every start and about three times the cold build.
package final class HTTPServer: Sendable {
    /// How long a send may wait for a slow reader.
    static let sendTimeout: TimeInterval = 10
    /// Seconds between the comments that keep an idle event stream checked.
    static let heartbeat: TimeInterval = 15
    /// Descriptors kept for everything but waiting connections: the answering threads' own
    /// sockets, project files read, the watcher.
    static let descriptorReserve = 256
    /// The largest request body read (a program's report); a larger one is answered 413.
    static let maxBody = 1 << 20

    package let port: UInt16
    package let limits: ConnectionLimits
    /// Waiting connections allowed, within the process's descriptor limit.
    package let pendingCapacity: Int
    private let socket: PlainSocket
    private let isAuthorized: @Sendable (HTTPRequest) -> Bool
    private let handler: @Sendable (HTTPRequest) -> HTTPResponse

    private enum Budget { case request, unauthenticated, events }

    private struct Stream {
        var id: ObjectIdentifier
        var socket: PlainSocket
        var subscription: EventSubscription
    }

    private struct State {
        /// Connections with a complete request, being answered or streaming.
        var open: [ObjectIdentifier: PlainSocket] = [:]
        var requests = 0
        var unauthenticated = 0
        /// Open event streams, oldest first.
        var streams: [Stream] = []
        /// Connections still sending their head.
        var pending = 0
        var stopped = false
    }

    private let state = Locked(State())

    /// Binds and listens at once; `start()` then accepts connections. Raises the process's
    /// descriptor limit to its hard limit, since a server holds many sockets at once.
    ///
    /// - Parameter isAuthorized: whether a request carries the token, to choose its budget.
    package init(
        host: String, port: UInt16, limits: ConnectionLimits = ConnectionLimits(),
        isAuthorized: @escaping @Sendable (HTTPRequest) -> Bool,
        handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) throws(PlainSocket.Failure) {
        socket = try PlainSocket.listen(host: host, port: port)
        self.port = socket.localPort ?? port
        self.limits = limits
        let descriptors = PlainSocket.raiseDescriptorLimit()
        let answering = limits.requests + limits.unauthenticatedRequests + limits.eventStreams
        pendingCapacity = max(8, min(limits.pendingConnections, descriptors - answering - Self.descriptorReserve))
        self.isAuthorized = isAuthorized
        self.handler = handler
    }

    package func start() {
        DetachedThread.start { [self] in acceptAndReadHeads() }
    }

    /// Connections open now: those still sending their head, those being answered and the
    /// event streams.
    package var openConnections: Int { state.withLock { $0.open.count + $0.pending } }

    /// Stops accepting and closes every open connection.
    package func stop() {
        let open = state.withLock { state -> [PlainSocket] in
            state.stopped = true
            return Array(state.open.values)
        }
        socket.shutDown()
        for connection in open { connection.shutDown() }
    }

    // MARK: Accepting and reading heads

    private func acceptAndReadHeads() {
        socket.setNonBlocking(true)
        var pending = PendingConnections(capacity: pendingCapacity, headerTimeout: limits.headerTimeout)
        // At most this many accepted per round, so a connection is read at least eight times
        // before a flood of newer ones could push it out.
        let acceptsPerRound = max(1, pendingCapacity / 8)
        var acceptPausedUntil: Date?
        while true {
            let now = Date()
            let listening = acceptPausedUntil.map { now >= $0 } ?? true
            var wait: TimeInterval = listening ? 1 : 0.05
            if let deadline = pending.nextDeadline { wait = min(wait, max(deadline.timeIntervalSince(now), 0)) }
            let ready = PlainSocket.readable((listening ? [socket] : []) + pending.sockets, within: wait)
            if state.withLock({ $0.stopped }) { return }
            // Read before accepting, so `ready` still lines up with the waiting list.
            let done = pending.read(ready: Array(ready.dropFirst(listening ? 1 : 0)), now: Date())
            acceptPausedUntil = nil
            if listening, ready.first == true {
                switch accept(into: &pending, atMost: acceptsPerRound) {
                case .drained: break
                case .pause: acceptPausedUntil = Date(timeIntervalSinceNow: 0.05)
                case .stopped: return
                }
            }
            let waiting = pending.waiting.count
            state.withLock { $0.pending = waiting }
            for (connection, outcome) in done { dispatch(connection.socket, peer: connection.peer, outcome) }
        }
    }

    private enum AcceptResult { case drained, pause, stopped }

    private func accept(into pending: inout PendingConnections, atMost limit: Int) -> AcceptResult {
        var accepted = 0
        while accepted < limit {
            do {
                let (client, peer) = try socket.accept()
                pending.admit(client, peer: peer, now: Date())
                accepted += 1
            } catch {
                if error.timedOut { return .drained }
                if error.isFatal || state.withLock({ $0.stopped }) { return .stopped }
                // Out of descriptors: the oldest waiting connection makes room, else wait.
                if error.code == EMFILE || error.code == ENFILE, pending.closeOldest() { continue }
                return .pause
            }
        }
        return .drained
    }

    // MARK: Answering

    /// Gives a connection whose head is in a thread from its budget, or refuses it.
    private func dispatch(_ client: PlainSocket, peer: String, _ outcome: PendingConnections.Outcome) {
        var read: Result<HTTPRequest, RequestProblem>
        switch outcome {
        case .head(let head, let rest): read = Self.request(from: head, peer: peer, rest: rest)
        case .malformed(let reason): read = .failure(RequestProblem(message: reason))
        }
        // The token is checked here, once: the request carries the answer to its handler.
        var chosen = Budget.unauthenticated
        if case .success(var request) = read, isAuthorized(request) {
            chosen = .request
            request.isAuthorized = true
            read = .success(request)
        }
        let parsed = read
        let budget = chosen
        let id = ObjectIdentifier(client)
        let admitted = state.withLock { state -> Bool in
            if state.stopped { return false }
            switch budget {
            case .request:
                guard state.requests < limits.requests else { return false }
                state.requests += 1
            case .unauthenticated, .events:
                guard state.unauthenticated < limits.unauthenticatedRequests else { return false }
                state.unauthenticated += 1
            }
            state.open[id] = client
            return true
        }
        guard admitted else {
            // Told to come back, with one send that never waits (the socket is still
            // non-blocking, and a few hundred bytes fit an unused send buffer), then closed.
            try? Self.write(
                HTTPResponse.error(503, "the live source is busy: retry in a moment"), to: client,
                version: "HTTP/1.1")
            client.shutDown()
            return
        }
        client.setNonBlocking(false)
        client.setTimeouts(send: Self.sendTimeout, receive: Self.sendTimeout)
        DetachedThread.start { [self] in
            var held = budget
            switch parsed.flatMap({ Self.readBody(of: $0, from: client, authorized: budget == .request) }) {
            case .success(let request):
                let response = handler(request)
                if case .events(let subscription) = response.body {
                    openStream(id, client, subscription, leaving: budget)
                    held = .events
                }
                try? Self.write(response, to: client, version: request.version)
                // Whatever the client sent beyond the head (a body) is read and dropped, so
                // closing does not reset the connection before the answer is read.
                client.finishSending(draining: 1 << 20, timeout: 1)
            case .failure(let problem):
                try? Self.write(HTTPResponse.error(problem.status, problem.message), to: client, version: "HTTP/1.1")
                client.finishSending()
            }
            client.shutDown()
            close(id, held)
        }
    }

    /// Moves a connection from its request budget to the event streams, ending the oldest
    /// stream if there are too many.
    private func openStream(
        _ id: ObjectIdentifier, _ client: PlainSocket, _ subscription: EventSubscription, leaving budget: Budget
    ) {
        let evicted = state.withLock { state -> [Stream] in
            release(budget, in: &state)
            state.streams.append(Stream(id: id, socket: client, subscription: subscription))
            let excess = max(state.streams.count - limits.eventStreams, 0)
            defer { state.streams.removeFirst(excess) }
            return Array(state.streams.prefix(excess))
        }
        for stream in evicted {
            stream.subscription.finish()
            stream.socket.shutDown()
        }
    }

    private func close(_ id: ObjectIdentifier, _ budget: Budget) {
        state.withLock { state in
            state.open.removeValue(forKey: id)
            if budget == .events {
                state.streams.removeAll { $0.id == id }
            } else {
                release(budget, in: &state)
            }
        }
    }

    private func release(_ budget: Budget, in state: inout State) {
        switch budget {
        case .request: state.requests -= 1
        case .unauthenticated: state.unauthenticated -= 1
        case .events: break
        }
    }

    // MARK: Reading a request

    private struct RequestProblem: Error {
        /// What to answer with a 400 (or `status`).
        var message: String
        var status = 400
    }

    /// Reads the body `Content-Length` announces (a program's report), after the bytes that
    /// came with the head; only for a request with the token; more than `maxBody` is refused.
    private static func readBody(of request: HTTPRequest, from client: PlainSocket, authorized: Bool)
        -> Result<HTTPRequest, RequestProblem>
    {
        guard authorized, let declared = request.headers["content-length"] else { return .success(request) }
        guard let length = Int(declared), length >= 0 else {
            return .failure(RequestProblem(message: "Content-Length is not a number"))
        }
        guard length <= maxBody else {
            return .failure(
                RequestProblem(message: "the body is \(length) bytes, more than \(maxBody) are refused", status: 413))
        }
        var request = request
        request.body = Array(request.body.prefix(length))
        let deadline = Date(timeIntervalSinceNow: sendTimeout)
        while request.body.count < length {
            guard let piece = try? client.receive(max: length - request.body.count, before: deadline) else {
                return .failure(RequestProblem(message: "the body ended before its Content-Length"))
            }
            request.body += piece
        }
        client.setTimeouts(send: sendTimeout, receive: sendTimeout)
        return .success(request)
    }

    private static func request(from head: SocketReader.Head, peer: String, rest: [UInt8]) -> Result<
        HTTPRequest, RequestProblem
    > {
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
                guard let name = halves[0].percentDecoded else { continue }
                query[name] = halves.count > 1 ? (halves[1].percentDecoded ?? "") : ""
            }
        }
        return .success(
            HTTPRequest(
                method: String(parts[0]), path: String(path), query: query, headers: head.headers,
                version: String(parts[2]), peer: peer, body: rest))
    }

    // MARK: Writing a response

    private static func write(_ response: HTTPResponse, to client: PlainSocket, version: String) throws(PlainSocket
        .Failure)
    {
        var head = "HTTP/1.1 \(response.status) \(reason(response.status))\r\nContent-Type: \(response.contentType)\r\n"
        for (name, value) in response.headers
        where !(name + value).contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) {
            head += "\(name): \(value)\r\n"
        }
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

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 204: return "No Content"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 413: return "Content Too Large"
        case 503: return "Service Unavailable"
        default: return "Error"
        }
    }
}
