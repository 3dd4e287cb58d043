import Foundation
import Testing

/// `flowpkg serve`'s refusals: each a clear message and the right exit status.
@Suite struct ServeCommandTests {
    @Test func aTakenPortIsAClearError() throws {
        let fixture = try RunFixture()
        let root = try fixture.project("App", modules: ["main.lua": "print('hi')\n"])
        let first = try ServedProject(root, in: fixture.url)
        defer { first.server.interrupt() }
        let port = String(first.url.split(separator: ":").last!)
        let second = try FlowpkgProcess.run(["serve", root.path, "--port", port, "--token", "abcdefgh"], in: fixture.url)
        #expect(second.status == 1)
        #expect(second.stderr.contains("cannot listen on 127.0.0.1:\(port): the port is in use"))
    }

    @Test func badArgumentsAreUsageErrors() throws {
        let fixture = try RunFixture()
        let root = try fixture.project("App", modules: ["main.lua": "print('hi')\n"])
        let host = try FlowpkgProcess.run(["serve", root.path, "--host", "example.invalid"], in: fixture.url)
        #expect(host.status == 64)
        #expect(host.stderr.contains("--host takes an IP address"))
        let token = try FlowpkgProcess.run(["serve", root.path, "--token", "short"], in: fixture.url)
        #expect(token.status == 64)
    }

    @Test func aMissingProjectIsAnError() throws {
        let fixture = try RunFixture()
        let result = try FlowpkgProcess.run(["serve", fixture.url.appendingPathComponent("nowhere").path], in: fixture.url)
        #expect(result.status == 1)
        #expect(result.stderr.contains("does not exist [FP108]"))
    }

    @Test func aNonLoopbackHostIsWarnedAbout() throws {
        let fixture = try RunFixture()
        let root = try fixture.project("App", modules: ["main.lua": "print('hi')\n"])
        let server = try BackgroundFlowpkg(["serve", root.path, "--host", "0.0.0.0", "--port", "0", "--token", "abcdefgh"],
                                           in: fixture.url)
        #expect(server.waitFor { stdout, _ in stdout.contains("Token: abcdefgh") })
        #expect(server.stderr.contains("warning: listening on 0.0.0.0"))
        #expect(server.interrupt() == 0)
        #expect(server.stdout.contains("Stopped."))
    }
}
