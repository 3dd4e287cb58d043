#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One HTTP/1.1 request over a plain TCP socket, the client half of FlowHTTP: all the live
/// protocol and the update feed need (authenticated GETs, a program's reports POSTed, one
/// long-lived event stream, over the `http://` that `flowpkg serve` speaks).
///
/// Not URLSession: on Linux it lives in FoundationNetworking, over libcurl, and linking it
/// loads libcurl's dependencies (TLS, Kerberos, LDAP, …) into every process that links this
/// target, `flowpkg` included: 6 ms more CPU at every start, live or not (Benchmarks/README.md,
/// "HTTP layer": 13.1 against 6.8 ms for a program with Foundation alone). Not swift-nio
/// either: measured there too, it serves no faster within the connection budget, and costs 4.7
/// MB of binary and about three times FlowHTTP's cold build.
///
/// Read by one thread; another thread stops it through its `cancellation`.
package final class HTTPConnection {
    /// The status and headers of an answer; header names in lower case.
    package struct Head: Equatable {
        package var status: Int
        package var headers: [String: String]
    }

    /// Why an exchange failed, in words for a message.
    package enum Failure: Error, Equatable {
        /// Nothing answered, or the connection broke.
        case unreachable(String)
        /// The other side does not speak HTTP as expected.
        case malformed(String)
    }

    private let socket: PlainSocket
    private let reader: SocketReader
    /// How long a read may wait, for messages.
    private let timeout: TimeInterval

    private init(socket: PlainSocket, timeout: TimeInterval) {
        self.socket = socket
        reader = SocketReader(socket)
        self.timeout = timeout
    }

    /// Connects to `url`'s host and port within `timeout`, then sends a GET for its path and
    /// query with `headers`. Each read afterwards waits at most `readTimeout` (nil: as long as
    /// it takes, for an event stream).
    package static func get(
        _ url: URL, headers: [(String, String)], timeout: TimeInterval,
        readTimeout: TimeInterval?
    ) throws(Failure) -> HTTPConnection {
        try send("GET", url, headers: headers, timeout: timeout, readTimeout: readTimeout)
    }

    /// Connects to `url`'s host and port within `timeout`, then sends a `method` request for
    /// its path and query with `headers` and `body` (announced by its `Content-Length` when
    /// not empty). Each read afterwards waits at most `readTimeout` (nil: as long as it
    /// takes, for an event stream).
    package static func send(
        _ method: String, _ url: URL, headers: [(String, String)], body: [UInt8] = [], timeout: TimeInterval,
        readTimeout: TimeInterval?
    ) throws(Failure) -> HTTPConnection {
        guard url.scheme?.lowercased() == "http" else {
            throw .unreachable(
                "only http:// is supported (flowpkg serve speaks plain HTTP), not \(url.scheme ?? "no scheme")://")
        }
        guard let host = url.host, !host.isEmpty else { throw .unreachable("the URL names no host") }
        let port = url.port ?? 80
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw .unreachable("the URL does not parse")
        }
        let socket: PlainSocket
        do {
            socket = try PlainSocket.connect(host: host, port: port, timeout: timeout)
        } catch {
            throw .unreachable(error.reason)
        }
        socket.setTimeouts(send: timeout, receive: readTimeout)
        let connection = HTTPConnection(socket: socket, timeout: readTimeout ?? timeout)
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        let hostHeader = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        var request = "\(method) \(target) HTTP/1.1\r\nHost: \(hostHeader)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        if !body.isEmpty { request += "Content-Length: \(body.count)\r\n" }
        request += "\r\n"
        do {
            try socket.send(Array(request.utf8) + body)
        } catch {
            throw .unreachable(error.reason)
        }
        return connection
    }

    /// A whole answer: its status and body.
    package struct Answer: Equatable {
        package var status: Int
        package var body: [UInt8]

        /// The `error` member of a JSON body (what flowpkg serve refuses with), else the body.
        package var message: String {
            if let decoded = try? JSONDecoder().decode([String: String].self, from: Data(body)),
                let error = decoded["error"]
            {
                return error
            }
            return body.isEmpty ? "no details" : String(decoding: body.prefix(512), as: UTF8.self)
        }
    }

    /// One whole exchange: sends a `method` request to `url` with `headers` and `body`, then
    /// reads the answer, each step within `timeout`. An answer larger than `limit` bytes is an
    /// error, never cut short.
    package static func exchange(
        _ method: String, _ url: URL, headers: [(String, String)], body: [UInt8] = [], timeout: TimeInterval,
        limit: Int = 1 << 20
    ) throws(Failure) -> Answer {
        let connection = try send(method, url, headers: headers, body: body, timeout: timeout, readTimeout: timeout)
        defer { connection.cancel() }
        let head = try connection.readHead()
        return Answer(status: head.status, body: try connection.readBody(head, limit: limit))
    }

    /// What unblocks a read waiting on another thread: it then fails, and nothing more is read.
    package struct Cancellation: Sendable {
        fileprivate let socket: PlainSocket

        package func cancel() { socket.shutDown() }
    }

    /// Cancels this connection from any thread.
    package var cancellation: Cancellation { Cancellation(socket: socket) }

    /// Makes the read in progress fail, and every later one.
    package func cancel() { cancellation.cancel() }

    /// Reads the status line and headers.
    package func readHead() throws(Failure) -> Head {
        let head: SocketReader.Head
        do { head = try reader.head() } catch { throw failure(error) }
        let parts = head.startLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw .malformed("it answered '\(head.startLine.prefix(80))', not HTTP/1.1")
        }
        return Head(status: status, headers: head.headers)
    }

    /// The whole body after `head`, refusing more than `limit` bytes.
    package func readBody(_ head: Head, limit: Int) throws(Failure) -> [UInt8] {
        var body: [UInt8] = []
        try streamBody(head) { (piece) throws(Failure) in
            if body.count + piece.count > limit { throw .malformed("its answer is larger than \(limit) bytes") }
            body += piece
        }
        return body
    }

    /// Hands each piece of the body after `head` to `consume` as it arrives, until it ends:
    /// by its Content-Length, its last chunk, or the connection closing.
    package func streamBody(_ head: Head, _ consume: (ArraySlice<UInt8>) throws(Failure) -> Void) throws(Failure) {
        if head.headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            while true {
                let sizeLine = try readLine()
                let digits =
                    sizeLine.split(separator: ";", maxSplits: 1).first.map { $0.trimmingSpaces() }
                    ?? ""
                guard let size = Int(digits, radix: 16), size >= 0 else {
                    throw .malformed("a chunk size reads '\(sizeLine.prefix(20))'")
                }
                if size == 0 {
                    while try !readLine().isEmpty {}  // trailers
                    return
                }
                var left = size
                while left > 0 {
                    let piece = try readSome(max: left)
                    left -= piece.count
                    try consume(piece)
                }
                guard try readLine().isEmpty else { throw .malformed("a chunk does not end where its size says") }
            }
        } else if let length = head.headers["content-length"] {
            guard var left = Int(length), left >= 0 else {
                throw .malformed("Content-Length reads '\(length.prefix(20))'")
            }
            while left > 0 {
                let piece = try readSome(max: left)
                left -= piece.count
                try consume(piece)
            }
        } else {
            while let piece = try readSomeOrEnd(max: 64 * 1024) { try consume(piece) }
        }
    }

    /// Up to `max` bytes, at least one; the connection ending first is an error.
    private func readSome(max: Int) throws(Failure) -> ArraySlice<UInt8> {
        guard let piece = try readSomeOrEnd(max: max) else { throw failure(.ended) }
        return piece
    }

    /// Up to `max` bytes, at least one, or nil when the other side closed the connection.
    private func readSomeOrEnd(max: Int) throws(Failure) -> ArraySlice<UInt8>? {
        do { return try reader.some(max: max) } catch { throw failure(.failed(error)) }
    }

    private func readLine() throws(Failure) -> String {
        do { return try reader.line() } catch { throw failure(error) }
    }

    private func failure(_ problem: SocketReader.Problem) -> Failure {
        switch problem {
        case .ended: return .unreachable("the connection closed mid-answer")
        case .failed(let error):
            return .unreachable(error.timedOut ? "no answer within \(String(printf: "%g", timeout)) s" : error.reason)
        case .malformed(let reason): return .malformed(reason)
        }
    }
}
