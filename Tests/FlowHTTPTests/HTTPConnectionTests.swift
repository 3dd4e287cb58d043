import FlowHTTP
import Foundation
import Testing

/// The live client's HTTP reading against canned answers from a one-shot server: every way a
/// body can be framed, and answers that are not HTTP.
@Suite struct HTTPConnectionTests {
    /// Answers the first connection with `answer`, byte for byte, then closes it.
    private func serveOnce(_ answer: String) throws -> URL {
        let listener = try PlainSocket.listen(host: "127.0.0.1", port: 0)
        let port = listener.localPort ?? 0
        Thread.detachNewThread {
            if let (client, _) = try? listener.accept() {
                _ = try? client.receive(max: 64 * 1024)
                try? client.send(Array(answer.utf8))
                client.shutDown()
            }
            listener.shutDown()
        }
        return URL(string: "http://127.0.0.1:\(port)/v1/manifest")!
    }

    private func body(of answer: String, limit: Int = 1 << 20) throws(HTTPConnection.Failure) -> (Int, String) {
        let url: URL
        do { url = try serveOnce(answer) } catch { throw .unreachable("\(error)") }
        let connection = try HTTPConnection.get(url, headers: [], timeout: 5, readTimeout: 5)
        let head = try connection.readHead()
        return (head.status, String(decoding: try connection.readBody(head, limit: limit), as: UTF8.self))
    }

    @Test func readsEveryBodyFraming() throws {
        #expect(try body(of: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello") == (200, "hello"))
        #expect(
            try body(
                of:
                    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;x=y\r\n world\r\n0\r\nTrailer: t\r\n\r\n"
            )
                == (200, "hello world"))
        #expect(
            try body(of: "HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\nuntil the end") == (404, "until the end"))
        #expect(try body(of: "HTTP/1.0 200 OK\nContent-Length: 2\n\nok") == (200, "ok"))
    }

    @Test func answersThatAreNotHTTPAreMalformed() throws {
        #expect(throws: HTTPConnection.Failure.malformed("it answered 'SSH-2.0-OpenSSH_9.2', not HTTP/1.1")) {
            try body(of: "SSH-2.0-OpenSSH_9.2\r\n\r\n")
        }
        #expect(throws: HTTPConnection.Failure.malformed("a chunk size reads 'zz'")) {
            try body(of: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
        }
        #expect(throws: HTTPConnection.Failure.malformed("its answer is larger than 4 bytes")) {
            try body(of: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", limit: 4)
        }
        #expect(throws: HTTPConnection.Failure.unreachable("the connection closed mid-answer")) {
            try body(of: "HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nshort")
        }
    }

    @Test func nothingListeningIsUnreachable() throws {
        let listener = try PlainSocket.listen(host: "127.0.0.1", port: 0)
        let port = listener.localPort ?? 0
        listener.shutDown()
        _ = consume listener
        #expect {
            try HTTPConnection.get(URL(string: "http://127.0.0.1:\(port)/")!, headers: [], timeout: 2, readTimeout: 2)
        } throws: { error in
            guard case HTTPConnection.Failure.unreachable(let reason) = error else { return false }
            return reason.contains("refused")
        }
        #expect(throws: HTTPConnection.Failure.self) {
            try HTTPConnection.get(URL(string: "https://127.0.0.1:1/")!, headers: [], timeout: 2, readTimeout: 2)
        }
    }
}
