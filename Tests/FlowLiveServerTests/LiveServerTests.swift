import FlowLiveProtocol
import FlowLiveDevelopment
import FlowPackage
import Foundation
import Testing
import FlowLiveTestSupport

@Suite(.serialized) struct LiveServerTests {
    @Test func servesTheProjectToATokenHolder() async throws {
        let fixture = try await LiveFixture()
        defer { Task { await fixture.stop() } }
        let manifest = try await blocking {
            try RawHTTP.get(port: fixture.port, target: "/v1/manifest", token: LiveFixture.token)
        }
        #expect(manifest.status == 200)
        #expect(manifest.body.contains("\"identifier\":\"com.example.live\""))
        let module = try await blocking {
            try RawHTTP.get(port: fixture.port, target: "/v1/module?name=greeting", token: LiveFixture.token)
        }
        #expect(module.status == 200)
        #expect(module.body.contains("getResource('hello', 'txt')"))
        let resource = try await blocking {
            try RawHTTP.get(port: fixture.port, target: "/v1/resource?name=hello&type=txt", token: LiveFixture.token)
        }
        #expect(resource.status == 200)
        #expect(resource.body == "hello")
        #expect(fixture.log.contains { $0.contains("GET /v1/module greeting → 200") })
    }

    @Test func everyRequestNeedsTheToken() async throws {
        let fixture = try await LiveFixture()
        defer { Task { await fixture.stop() } }
        for target in [
            "/v1/manifest", "/v1/module?name=main", "/v1/resource?name=hello&type=txt", "/v1/events", "/nothing",
            "/v1/script?path=main.lua",
        ] {
            let missing = try await blocking { try RawHTTP.get(port: fixture.port, target: target, token: nil) }
            #expect(missing.status == 401, "\(target) without a token")
            let wrong = try await blocking { try RawHTTP.get(port: fixture.port, target: target, token: "wrong-token") }
            #expect(wrong.status == 401, "\(target) with a wrong token")
            #expect(!wrong.body.contains("require"))
        }
    }

    @Test func noPathFromAURLReachesTheFileSystem() async throws {
        let fixture = try await LiveFixture()
        defer { Task { await fixture.stop() } }
        let shapes = [
            "/../../etc/passwd", "/v1/module/../../../../etc/passwd", "/v1/module?name=../../../../etc/passwd",
            "/v1/module?name=..%2F..%2F..%2Fetc%2Fpasswd", "/v1/module?name=%2Fetc%2Fpasswd",
            "/v1/resource?name=../../../../etc/passwd&type=", "/v1/resource?name=/etc/passwd&type=",
            "/v1/resource?name=..%2F..%2F..%2F..%2Fetc&type=passwd", "/%2e%2e/%2e%2e/etc/passwd",
            "/v1/module/..%2f..%2f..%2fetc%2fpasswd", "//etc/passwd",
            "/v1/resource?name=hello/../../../../etc/passwd&type=",
            "/v1/module?name=flowpkg.json", "/v1/resource?name=../flowpkg&type=json",
            "/v1/script?path=../flowpkg.json", "/v1/script?path=/etc/passwd", "/v1/script?path=main.lua",
            "/v1/script?path=..%2F..%2F..%2Fetc%2Fpasswd", "/v1/script?name=main.lua",
        ]
        for target in shapes {
            let answer = try await blocking {
                try RawHTTP.get(port: fixture.port, target: target, token: LiveFixture.token)
            }
            #expect(answer.status == 404 || answer.status == 400, "\(target) answered \(answer.status)")
            #expect(!answer.body.contains("root:"), "\(target) leaked /etc/passwd")
            #expect(!answer.body.contains("identifier\": \"com"), "\(target) leaked flowpkg.json")
        }
    }

    @Test func malformedRequestsAreRefusedAndOnlyGETIsServed() async throws {
        let fixture = try await LiveFixture()
        defer { Task { await fixture.stop() } }
        let auth = "Authorization: Bearer \(LiveFixture.token)\r\n"
        let post = try await blocking {
            try RawHTTP.send(port: fixture.port, "POST /v1/manifest HTTP/1.1\r\n\(auth)\r\n")
        }
        #expect(post.status == 405)
        let junk = try await blocking { try RawHTTP.send(port: fixture.port, "HELLO THERE\r\n\r\n") }
        #expect(junk.status == 400)
        let relative = try await blocking {
            try RawHTTP.send(port: fixture.port, "GET v1/manifest HTTP/1.1\r\n\(auth)\r\n")
        }
        #expect(relative.status == 400)
        let longLine = String(repeating: "a", count: 20_000)
        let huge = try await blocking {
            try RawHTTP.send(port: fixture.port, "GET /v1/manifest HTTP/1.1\r\nX-Long: \(longLine)\r\n\(auth)\r\n")
        }
        #expect(huge.status == 400)
        let headers = String(repeating: "X-Many: \(String(repeating: "b", count: 1_000))\r\n", count: 80)
        let many = try await blocking {
            try RawHTTP.send(port: fixture.port, "GET /v1/manifest HTTP/1.1\r\n\(headers)\(auth)\r\n")
        }
        #expect(many.status == 400)
        // Bare LF line ends are read too, and the server still answers afterwards.
        let bare = try await blocking {
            try RawHTTP.send(
                port: fixture.port, "GET /v1/manifest HTTP/1.1\n\(auth.replacingOccurrences(of: "\r", with: ""))\n")
        }
        #expect(bare.status == 200)
    }

    @Test(arguments: [false, true]) func aSavedModuleIsPushedAsAChange(polling: Bool) async throws {
        let fixture = try await LiveFixture(forcePolling: polling)
        defer { Task { await fixture.stop() } }
        let monitor = DevelopmentMonitor(configuration: .init(url: fixture.url, token: LiveFixture.token))
        defer { monitor.stop() }
        let changes = Inbox<LiveChange>()
        let opened = Inbox<Int>()
        monitor.watchChanges(onOpen: { opened.put($0) }, onChange: { changes.put($0) }, onEnd: { _ in })
        // The stream is open (its hello came) before the edit.
        #expect(await opened.wait() != nil)
        try fixture.write("return { text = 'changed' }\n", to: "Sources/greeting.lua")
        let change = try #require(await changes.wait { $0.modules.map(\.rawValue).contains("greeting") })
        #expect(change.resources.isEmpty)
        try fixture.write("hi there", to: "Resources/hello.txt")
        #expect(await changes.wait { $0.resources.map(\.fileName).contains("hello.txt") } != nil)
        try fixture.write("return 1\n", to: "Sources/extra.lua")
        #expect(await changes.wait { $0.modules.map(\.rawValue).contains("extra") } != nil)
        #expect(fixture.log.contains { $0.hasPrefix("change r") })
    }

    @Test func aBrokenProjectFileKeepsTheLastGoodStateServed() async throws {
        let fixture = try await LiveFixture()
        defer { Task { await fixture.stop() } }
        try fixture.write("{ broken", to: "flowpkg.json")
        if case .failed(let diagnostics) = fixture.server.project.rescan() {
            #expect(diagnostics.contains { $0.code.code == "FP101" })
        } else {
            Issue.record("a broken flowpkg.json was not reported")
        }
        let module = try await blocking {
            try RawHTTP.get(port: fixture.port, target: "/v1/module?name=greeting", token: LiveFixture.token)
        }
        #expect(module.status == 200)
    }
}
