@testable import FlowHTTP
@testable import FlowLiveServer
import FlowPackage
import FlowSupport
import Foundation
import Testing
import FlowLiveTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `flowpkg serve` against clients without the token that hold sockets open, trickle their
/// heads or flood it with connections, and against a pile of event streams: the token holder
/// is still answered, and nothing a client sends forges a line of the log. Real sockets on
/// 127.0.0.1; each loop is bounded in count and in time.
@Suite(.serialized) struct ServeUnderAttackTests {
    /// A client that sends its head slowly, or never, is closed once its header deadline
    /// passes, unanswered.
    @Test func aHeadThatTricklesOrNeverComesIsClosedAtItsDeadline() async throws {
        let fixture = try await LiveFixture(limits: LiveConnectionLimits(headerTimeout: 0.5))
        defer { Task { await fixture.stop() } }
        let silent = try PlainSocket.connect(host: "127.0.0.1", port: Int(fixture.port), timeout: 2)
        let trickling = try PlainSocket.connect(host: "127.0.0.1", port: Int(fixture.port), timeout: 2)
        let trickle = Trickle([trickling], first: "GET /v1/manifest HTTP/1.1\r\nX-Slow: ")
        defer { trickle.stop() }
        // Well short of the 10 s the head had before the deadline could be set.
        for socket in [silent, trickling] {
            let end = await Self.readToEnd(socket)
            #expect(end.ended, "the connection was still open after 5 s")
            #expect(end.bytes == 0, "the server answered instead of closing")
        }
    }

    /// (a) 300 idle sockets stay open, and the token holder is answered all the same.
    @Test func threeHundredIdleSocketsDoNotLockOutTheTokenHolder() async throws {
        let fixture = try await LiveFixture(limits: LiveConnectionLimits(headerTimeout: 60))
        defer { Task { await fixture.stop() } }
        var idle: [PlainSocket] = []
        for _ in 0..<300 {
            idle.append(try PlainSocket.connect(host: "127.0.0.1", port: Int(fixture.port), timeout: 2))
        }
        let answer = try await blocking {
            try RawHTTP.get(port: fixture.port, target: "/v1/manifest", token: LiveFixture.token)
        }
        #expect(answer.status == 200)
        // Answered while all 300 were still open: none had been closed to make room.
        #expect(idle.filter(\.isClosedByPeer).isEmpty)
        #expect(fixture.server.openConnections >= 300)
    }

    /// (b) 500 sockets trickling their heads a byte at a time do not stop a token holder's
    /// requests, and those without the token are still told 401.
    @Test func aSlowlorisDoesNotStopLegitimateRequests() async throws {
        let fixture = try await LiveFixture(limits: LiveConnectionLimits(headerTimeout: 60))
        defer { Task { await fixture.stop() } }
        var sockets: [PlainSocket] = []
        for _ in 0..<500 {
            sockets.append(try PlainSocket.connect(host: "127.0.0.1", port: Int(fixture.port), timeout: 2))
        }
        let trickle = Trickle(sockets, first: "GET /v1/manifest HTTP/1.1\r\nAuthorization: Bearer ")
        defer { trickle.stop() }
        #expect(await trickle.sent(atLeast: 2 * sockets.count))
        for attempt in 0..<20 {
            let answer = try await blocking {
                try RawHTTP.get(port: fixture.port, target: "/v1/module?name=greeting", token: LiveFixture.token)
            }
            #expect(answer.status == 200, "request \(attempt)")
        }
        let stranger = try await blocking { try RawHTTP.get(port: fixture.port, target: "/v1/manifest", token: nil) }
        #expect(stranger.status == 401)
    }

    /// 100 requests without the token whose clients neither read the 401 nor close: they hold
    /// no thread a token holder needs, and one more without the token is still answered.
    @Test func requestsWithoutTheTokenCannotTakeTheTokenHoldersPlace() async throws {
        let fixture = try await LiveFixture()
        defer { Task { await fixture.stop() } }
        var strangers: [PlainSocket] = []
        for _ in 0..<100 {
            let socket = try PlainSocket.connect(host: "127.0.0.1", port: Int(fixture.port), timeout: 2)
            try socket.send(Array("GET /v1/manifest HTTP/1.1\r\n\r\n".utf8))
            strangers.append(socket)
        }
        let answer = try await blocking {
            try RawHTTP.get(port: fixture.port, target: "/v1/manifest", token: LiveFixture.token)
        }
        #expect(answer.status == 200)
        let stranger = try await blocking { try RawHTTP.get(port: fixture.port, target: "/v1/manifest", token: nil) }
        #expect(stranger.status == 401 || stranger.status == 503, "\(stranger.status)")
    }

    /// (c) More event streams than the server keeps: the oldest ends, a new one opens, and an
    /// ordinary request is answered.
    @Test func manyOpenEventStreamsDoNotStopANewRequest() async throws {
        let fixture = try await LiveFixture()
        defer { Task { await fixture.stop() } }
        let kept = LiveConnectionLimits().eventStreams
        var streams: [PlainSocket] = []
        for _ in 0..<(kept * 2 + 6) { streams.append(try await Self.openEventStream(fixture)) }
        let answer = try await blocking {
            try RawHTTP.get(port: fixture.port, target: "/v1/manifest", token: LiveFixture.token)
        }
        #expect(answer.status == 200)
        let newest = try await Self.openEventStream(fixture)
        // The oldest stream has been ended to make room: reading it reaches its end.
        #expect(await Self.readToEnd(streams[0]).ended)
        #expect(!newest.isClosedByPeer)
    }

    /// (d) 2,000 connections opened at once, then a legitimate request: it is answered.
    @Test func twoThousandConcurrentConnectionsThenALegitimateRequest() async throws {
        let fixture = try await LiveFixture()
        defer { Task { await fixture.stop() } }
        let flood = try RawConnections(count: 2000, port: fixture.port)
        defer { flood.close() }
        let answer = try await blocking {
            try RawHTTP.get(port: fixture.port, target: "/v1/manifest", token: LiveFixture.token)
        }
        #expect(answer.status == 200)
        #expect(fixture.server.openConnections <= LiveConnectionLimits().pendingConnections + 1)
    }

    /// A name or path that decodes to a newline or an ANSI escape shows escaped in the log,
    /// one line per request; without the token, the name is not logged at all.
    @Test func requestsCannotForgeOrColourTheLog() async throws {
        let fixture = try await LiveFixture()
        defer { Task { await fixture.stop() } }
        let target = "/v1/module?name=x%0A127.0.0.1:1%20GET%20/v1/manifest%20%E2%86%92%20200%1B%5B31m"
        let stranger = try await blocking { try RawHTTP.get(port: fixture.port, target: target, token: nil) }
        #expect(stranger.status == 401)
        let holder = try await blocking {
            try RawHTTP.get(port: fixture.port, target: target, token: LiveFixture.token)
        }
        #expect(holder.status == 404)
        let rawPath = try await blocking {
            try RawHTTP.send(port: fixture.port, "GET /\u{1B}[2J\u{1B}[31mred\u{202E} HTTP/1.1\r\n\r\n")
        }
        #expect(rawPath.status == 401)
        let log = fixture.log
        #expect(log.count == 3, "\(log)")
        for line in log {
            #expect(!line.contains("\n") && !line.contains("\r") && !line.contains("\u{1B}"), "\(line)")
            #expect(!line.unicodeScalars.contains("\u{202E}"), "\(line)")
        }
        #expect(log[0].hasSuffix(" GET /v1/module → 401"), "\(log[0])")
        #expect(!log[0].contains("x\\n"))
        #expect(log[1].contains(#"/v1/module x\n127.0.0.1:1 GET /v1/manifest → 200\x1b[31m → 404"#), "\(log[1])")
        #expect(log[2].contains(#"GET /\x1b[2J\x1b[31mred\u{202e} → 401"#), "\(log[2])")
    }

    @Test func escapedLogTextShowsEveryControlCharacter() {
        #expect(LogText.escaped("plain name/é ✓") == "plain name/é ✓")
        #expect(LogText.escaped("a\nb\r\tc") == #"a\nb\r\tc"#)
        #expect(LogText.escaped("\u{1B}[31m\u{7F}\u{0}") == #"\x1b[31m\x7f\x00"#)
        #expect(LogText.escaped("\u{9B}\u{2028}\u{200B}") == #"\u{9b}\u{2028}\u{200b}"#)
        #expect(LogText.escaped(#"\x1b"#) == #"\\x1b"#)
    }

    @Test func aHeadIsReadOnlyOnceItsBlankLineHasCome() throws {
        let request = Array("GET / HTTP/1.1\r\nHost: a\r\n\r\nbody".utf8)
        #expect(PendingConnections.endOfHead(in: request, from: 0) == 26)
        #expect(PendingConnections.endOfHead(in: Array("GET / HTTP/1.1\nA: b\n\n".utf8), from: 0) == 20)
        #expect(PendingConnections.endOfHead(in: Array(request[..<25]), from: 0) == nil)
        let head = try #require(try SocketReader.head(in: request[...26]))
        #expect(head.startLine == "GET / HTTP/1.1")
        #expect(head.headers == ["host": "a"])
        #expect(try SocketReader.head(in: request[..<20]) == nil)
        #expect(throws: SocketReader.Problem.self) {
            try SocketReader.head(in: Array(repeating: UInt8(ascii: "a"), count: SocketReader.maxLine + 2)[...])
        }
    }

    /// Reads until the server ends the connection (closes or resets it) or 5 s pass, counting
    /// the bytes it sent.
    static func readToEnd(_ socket: PlainSocket) async -> (ended: Bool, bytes: Int) {
        let box = try? await blocking { () -> UncheckedBox<(Bool, Int)> in
            let deadline = Date(timeIntervalSinceNow: 5)
            var count = 0
            while true {
                do {
                    guard let bytes = try socket.receive(max: 4096, before: deadline) else {
                        return UncheckedBox((true, count))
                    }
                    count += bytes.count
                } catch {
                    return UncheckedBox(((error as? PlainSocket.Failure)?.timedOut != true, count))
                }
            }
        }
        return box.map { (ended: $0.value.0, bytes: $0.value.1) } ?? (false, 0)
    }

    /// Opens an authenticated event stream and waits for its `hello` event.
    static func openEventStream(_ fixture: LiveFixture) async throws -> PlainSocket {
        try await blocking {
            let socket = try PlainSocket.connect(host: "127.0.0.1", port: Int(fixture.port), timeout: 2)
            try socket.send(Array("GET /v1/events HTTP/1.1\r\nAuthorization: Bearer \(LiveFixture.token)\r\n\r\n".utf8))
            var received = ""
            let deadline = Date(timeIntervalSinceNow: 5)
            while !received.contains("event: hello") {
                guard let bytes = try socket.receive(max: 4096, before: deadline) else { break }
                received += String(decoding: bytes, as: UTF8.self)
            }
            guard received.contains("event: hello") else { throw PlainSocket.Failure(EPROTO, "no hello: \(received)") }
            return socket
        }
    }
}

/// Sends `first`, then one more byte at a time to each socket in turn, on a thread of its own,
/// until stopped (or for 30 s at most): a slowloris.
final class Trickle: @unchecked Sendable {
    private let stopped = Locked(false)
    private let count = Inbox<Int>()

    init(_ sockets: [PlainSocket], first: String) {
        Thread.detachNewThread { [self] in
            var sent = 0
            let until = Date(timeIntervalSinceNow: 30)
            for socket in sockets {
                try? socket.send(Array(first.utf8))
                sent += 1
            }
            count.put(sent)
            while !stopped.withLock({ $0 }) && Date() < until {
                for socket in sockets { try? socket.send([UInt8(ascii: "a")]) }
                sent += sockets.count
                count.put(sent)
                Thread.sleep(forTimeInterval: 0.05)  // the trickle's pace, not a wait
            }
        }
    }

    /// Waits until `bytes` sends have been made.
    func sent(atLeast bytes: Int) async -> Bool {
        await count.wait(timeout: 10) { $0 >= bytes } != nil
    }

    func stop() { stopped.withLock { $0 = true } }
}

/// Connections opened at once with non-blocking connects, and never written to.
final class RawConnections {
    private var descriptors: [Int32] = []

    init(count: Int, port: UInt16) throws {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        for _ in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            descriptors.append(fd)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            let status = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard status == 0 || errno == EINPROGRESS else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }
    }

    func close() {
        for fd in descriptors { Glibc.close(fd) }
        descriptors = []
    }
}
