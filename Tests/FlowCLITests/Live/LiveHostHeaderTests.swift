import FlowTestSupport
import Foundation
import Testing

/// DNS rebinding (issue 43, item 16): a page of `attacker.example` whose name resolves to
/// 127.0.0.1 reaches the live source with the token it learnt, but its requests carry its own
/// name in `Host`. Only loopback names, addresses and the name serve listens on are answered.
@Suite(.serialized) struct LiveHostHeaderTests {
    /// The status of a GET of `path` on `port` sent with `Host: host` and the token.
    static func status(port: String, path: String, host: String) throws -> Int {
        let result = try FlowpkgProcess.run(
            [
                "python3", "-c",
                """
                import http.client, sys
                connection = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=10)
                connection.putrequest("GET", sys.argv[2], skip_host=True)
                connection.putheader("Host", sys.argv[3])
                connection.putheader("Authorization", "Bearer " + sys.argv[4])
                connection.endheaders()
                print(connection.getresponse().status)
                """, port, path, host, ServedProject.token,
            ], in: URL(fileURLWithPath: "/"), executable: URL(fileURLWithPath: "/usr/bin/env"))
        return Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    @Test func aForeignHostNameIsRefusedWithTheToken() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project("App", modules: ["main.lua": "print('served')\n"])
        let served = try ServedProject(root, in: fixture.url)
        defer { served.server.interrupt() }
        let port = String(try #require(served.url.split(separator: ":").last))
        #expect(try Self.status(port: port, path: "/v1/manifest", host: "attacker.example") == 403)
        #expect(try Self.status(port: port, path: "/v1/manifest", host: "attacker.example:\(port)") == 403)
        #expect(try Self.status(port: port, path: "/v1/session-page", host: "127.0.0.1.attacker.example") == 403)
        for host in ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)", "127.0.0.1"] {
            #expect(try Self.status(port: port, path: "/v1/manifest", host: host) == 200, "\(host)")
        }
    }
}
