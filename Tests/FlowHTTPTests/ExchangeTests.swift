import FlowHTTP
import FlowSupport
import Foundation
import Testing

/// `HTTPConnection.exchange`, the one POST the debugger's two ends send through: the request
/// as written on the wire, the status and body read back, and every failure an error with its
/// reason, never a silent nil or a body cut short.
@Suite struct ExchangeTests {
    /// Answers the first connection with `answer`; what it received comes back through `seen`.
    private func serveOnce(_ answer: String, seen: @escaping @Sendable ([UInt8]) -> Void = { _ in }) throws -> URL {
        let listener = try PlainSocket.listen(host: "127.0.0.1", port: 0)
        let port = listener.localPort ?? 0
        Thread.detachNewThread {
            if let (client, _) = try? listener.accept() {
                var request: [UInt8] = []
                while !String(decoding: request, as: UTF8.self).hasSuffix("{\"a\":1}"),
                    let piece = try? client.receive(max: 64 * 1024), !piece.isEmpty
                {
                    request += piece
                }
                seen(request)
                try? client.send(Array(answer.utf8))
                client.shutDown()
            }
            listener.shutDown()
        }
        return URL(string: "http://127.0.0.1:\(port)/v1/debug/program?id=a%20b")!
    }

    private func post(_ url: URL, limit: Int = 1 << 20) throws(HTTPConnection.Failure) -> HTTPConnection.Answer {
        try HTTPConnection.exchange(
            "POST", url, headers: [("Authorization", "Bearer T")], body: Array("{\"a\":1}".utf8), timeout: 5,
            limit: limit)
    }

    @Test func aPostIsWrittenWholeAndItsAnswerRead() throws {
        let request = Locked<[UInt8]>([])
        let url = try serveOnce("HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n") { bytes in
            request.withLock { $0 = bytes }
        }
        let answer = try post(url)
        #expect(answer.status == 204 && answer.body.isEmpty)
        let text = String(decoding: request.withLock { $0 }, as: UTF8.self)
        #expect(text.hasPrefix("POST /v1/debug/program?id=a%20b HTTP/1.1\r\n"), "\(text)")
        #expect(text.contains("\r\nAuthorization: Bearer T\r\n") && text.contains("\r\nContent-Length: 7\r\n"))
        #expect(text.hasSuffix("\r\n\r\n{\"a\":1}"))
    }

    @Test func aRefusalKeepsItsStatusAndMessage() throws {
        let body = #"{"error": "the program is no longer connected"}"#
        let url = try serveOnce("HTTP/1.1 404 Not Found\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        let answer = try post(url)
        #expect(answer.status == 404)
        #expect(answer.message == "the program is no longer connected")
    }

    @Test func aLargeAnswerIsAnErrorNotCutShort() throws {
        let url = try serveOnce(
            "HTTP/1.1 200 OK\r\nContent-Length: 2000000\r\n\r\n" + String(repeating: "x", count: 2_000_000))
        #expect(throws: HTTPConnection.Failure.malformed("its answer is larger than 1048576 bytes")) { try post(url) }
    }

    @Test func aStatusLineThatIsNotHTTPIsMalformed() throws {
        let url = try serveOnce("HTTP 200 OK\r\n\r\n")
        #expect(throws: HTTPConnection.Failure.malformed("it answered 'HTTP 200 OK', not HTTP/1.1")) { try post(url) }
    }
}
