import FlowSupport
import Foundation
import Testing

@testable import FlowHTTP

/// FlowHTTP's one layer, both halves talking over a real socket on loopback: the server with
/// its budgets and the client, a POST with a body, server-sent events.
@Suite struct HTTPServerTests {
    /// Counts how often the server asks whether a request carries the token.
    final class Checks: Sendable {
        let count = Locked(0)
    }

    private func server(
        checks: Checks, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) throws -> HTTPServer {
        let server = try HTTPServer(
            host: "127.0.0.1", port: 0,
            isAuthorized: { request in
                checks.count.withLock { $0 += 1 }
                return request.headers["authorization"] == "Bearer secret"
            }, handler: handler)
        server.start()
        return server
    }

    @Test func theTokenIsCheckedOncePerRequestAndTheHandlerIsToldTheAnswer() throws {
        let checks = Checks()
        let server = try server(checks: checks) { request in
            HTTPResponse(
                status: 200, contentType: "text/plain",
                body: .bytes(Array("\(request.method) \(request.path) \(request.isAuthorized)".utf8)))
        }
        defer { server.stop() }
        let url = URL(string: "http://127.0.0.1:\(server.port)/v1/manifest")!
        let connection = try HTTPConnection.get(
            url, headers: [("Authorization", "Bearer secret")], timeout: 5, readTimeout: 5)
        let head = try connection.readHead()
        #expect(head.status == 200)
        #expect(String(decoding: try connection.readBody(head, limit: 1024), as: UTF8.self) == "GET /v1/manifest true")
        #expect(checks.count.withLock { $0 } == 1)

        let without = try HTTPConnection.get(url, headers: [], timeout: 5, readTimeout: 5)
        let answer = try without.readHead()
        #expect(String(decoding: try without.readBody(answer, limit: 1024), as: UTF8.self) == "GET /v1/manifest false")
        #expect(checks.count.withLock { $0 } == 2)
    }

    @Test func aPostCarriesItsBodyAndAnErrorAnswerKeepsItsMessage() throws {
        let checks = Checks()
        let server = try server(checks: checks) { request in
            guard request.method == "POST" else { return .error(405, "POST only") }
            return HTTPResponse(status: 200, contentType: "application/json", body: .bytes(request.body))
        }
        defer { server.stop() }
        let url = URL(string: "http://127.0.0.1:\(server.port)/v1/report")!
        let body = Array(#"{"events":[]}"#.utf8)
        let connection = try HTTPConnection.send(
            "POST", url, headers: [("Authorization", "Bearer secret")], body: body, timeout: 5, readTimeout: 5)
        let head = try connection.readHead()
        #expect(head.status == 200)
        #expect(try connection.readBody(head, limit: 1024) == body)

        let refused = HTTPResponse.error(405, "POST only")
        #expect(refused.errorMessage == "POST only")
        guard case .bytes(let bytes) = refused.body else {
            Issue.record("an error answer has bytes")
            return
        }
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"error":"POST only"}"#)
    }

    @Test func anEventStreamIsWrittenAsServerSentEventsInChunks() throws {
        let checks = Checks()
        let subscription = EventSubscription { _ in }
        subscription.yield(Array("event: hello\ndata: 1\n\n".utf8))
        subscription.finish()
        let server = try server(checks: checks) { _ in
            HTTPResponse(status: 200, contentType: "text/event-stream", body: .events(subscription))
        }
        defer { server.stop() }
        let url = URL(string: "http://127.0.0.1:\(server.port)/v1/events")!
        let connection = try HTTPConnection.get(
            url, headers: [("Authorization", "Bearer secret")], timeout: 5, readTimeout: 5)
        let head = try connection.readHead()
        #expect(head.headers["transfer-encoding"] == "chunked")
        #expect(head.headers["content-type"] == "text/event-stream")
        #expect(
            String(decoding: try connection.readBody(head, limit: 1024), as: UTF8.self) == "event: hello\ndata: 1\n\n")
    }
}
