import FlowTestSupport
import Foundation
import Testing

/// `flowpkg serve` takes its token from `FLOWPKG_LIVE_TOKEN` when `--token` is not given: a
/// token kept across restarts need not sit on serve's command line, where every local user
/// reads it.
@Suite struct ServeTokenEnvironmentTests {
    @Test func serveTakesTheTokenFromTheEnvironment() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project("App", modules: ["main.lua": "print(\"hi\")\n"])
        let secret = "from-the-environment-1234"
        let server = try BackgroundFlowpkg(
            ["serve", root.path, "--port", "0"], in: fixture.url, environment: ["FLOWPKG_LIVE_TOKEN": secret])
        defer { server.interrupt() }
        #expect(server.waitFor { stdout, _ in stdout.contains("Token: \(secret)") }, "\(server.stdout)\(server.stderr)")
        // The token is the one requests are checked against: a wrong one is refused.
        let url = try #require(
            server.stdout.split(separator: "\n").first { $0.hasPrefix("Serving ") }?.components(separatedBy: " at ")
                .last)
        let accepted = try FlowpkgProcess.run(
            ["run", root.path, "--live", url], in: fixture.url, environment: ["FLOWPKG_LIVE_TOKEN": secret])
        #expect(accepted.stderr.contains("live: connected to \(url)"), "\(accepted.stderr)")
        let refused = try FlowpkgProcess.run(
            ["run", root.path, "--live", url], in: fixture.url, environment: ["FLOWPKG_LIVE_TOKEN": "wrong-token-5678"])
        #expect(!refused.stderr.contains("live: connected"), "\(refused.stderr)")
        #expect(refused.stderr.contains("token"), "\(refused.stderr)")
        // --token still wins over the environment.
        let commandLine = try BackgroundFlowpkg(
            ["serve", root.path, "--port", "0", "--token", "from-the-command-line"], in: fixture.url,
            environment: ["FLOWPKG_LIVE_TOKEN": secret])
        defer { commandLine.interrupt() }
        #expect(
            commandLine.waitFor { stdout, _ in stdout.contains("Token: from-the-command-line") },
            "\(commandLine.stdout)")
    }

    @Test func aShortTokenInTheEnvironmentIsRefusedByName() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project("App", modules: ["main.lua": "print(\"hi\")\n"])
        let result = try FlowpkgProcess.run(
            ["serve", root.path, "--port", "0"], in: fixture.url, environment: ["FLOWPKG_LIVE_TOKEN": "short"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("FLOWPKG_LIVE_TOKEN must be at least 8 characters"), "\(result.stderr)")
    }
}
