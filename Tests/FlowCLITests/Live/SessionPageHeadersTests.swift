import FlowTestSupport
import Foundation
import Testing

/// The session page's headers (issue 43, item 16): its address holds the token, so it is never
/// stored, no page may frame it, and it sends no referrer; they are HTTP headers, since a meta
/// tag cannot forbid framing.
@Suite(.serialized) struct SessionPageHeadersTests {
    /// The headers of a GET of `path` on `port`, lower-cased names.
    static func headers(port: String, path: String) throws -> [String: String] {
        let result = try FlowpkgProcess.run(
            [
                "python3", "-c",
                """
                import http.client, json, sys
                connection = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=10)
                connection.request("GET", sys.argv[2])
                response = connection.getresponse()
                print(json.dumps({k.lower(): v for k, v in response.getheaders()}))
                """, port, path,
            ], in: URL(fileURLWithPath: "/"), executable: URL(fileURLWithPath: "/usr/bin/env"))
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return object as? [String: String] ?? [:]
    }

    @Test func thePageIsSentWithItsPolicyAsHeaders() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project("App", modules: ["main.lua": "print('served')\n"])
        let served = try ServedProject(root, in: fixture.url)
        defer { served.server.interrupt() }
        let port = String(try #require(served.url.split(separator: ":").last))
        let headers = try Self.headers(port: port, path: "/session?token=\(ServedProject.token)")
        #expect(headers["content-type"] == "text/html; charset=utf-8", "\(headers)")
        #expect(headers["cache-control"] == "no-store", "\(headers)")
        #expect(headers["referrer-policy"] == "no-referrer", "\(headers)")
        let policy = headers["content-security-policy"] ?? ""
        #expect(policy.contains("frame-ancestors 'none'"), "\(headers)")
        #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'sha256-"), "\(headers)")
    }
}
