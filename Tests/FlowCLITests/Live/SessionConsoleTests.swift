import FlowTestSupport
import Foundation
import Testing

/// The session page's console, in headless Chromium: a line evaluated in the program that runs
/// under `flowpkg run --live`, through `flowpkg serve`'s debug relay and the page's token. A
/// line the page's address carries (`#evaluate=`) runs only when the developer presses
/// Evaluate (issue 43, item 16), and "Clear console" clears (issue 46).
@Suite(.serialized) struct SessionConsoleTests {
    static func drive(_ page: String, expression: String, in directory: URL) throws -> [String: Any] {
        let result = try FlowpkgProcess.run(
            [
                "python3", SessionPageTests.scripts.appendingPathComponent("session_console.py").path, page,
                expression,
            ], in: directory, executable: URL(fileURLWithPath: "/usr/bin/env"))
        guard result.status == 0,
            let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        else { throw FixtureError(message: "the page driver failed:\n\(result.stdout)\(result.stderr)") }
        return object
    }

    @Test func anAddressesLineIsAskedForAndClearConsoleClears() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project(
            "App", modules: ["main.lua": "answer = 6 * 7\nevaluated = 0\nprint('started')\nprint('second line')\n"])
        // --verbose: the request lines the test waits for and counts.
        let served = try ServedProject(root, in: fixture.url, extra: ["--verbose"])
        defer { served.server.interrupt() }
        let run = try BackgroundFlowpkg(
            ["run", root.path, "--live", served.url, "--token", ServedProject.token, "--watch"], in: fixture.url)
        defer { run.interrupt() }
        #expect(
            served.server.waitFor { stdout, _ in stdout.contains("/v1/debug/program") && stdout.contains("second line")
            },
            "\(served.server.stdout)")
        let page = served.url + "/session?token=" + ServedProject.token
        let seen = try Self.drive(page, expression: "answer + 0", in: fixture.url)
        // Loaded with #evaluate=: the line waits in the input, with a note; nothing was sent.
        let asked = seen["asked"] as? [String: Any] ?? [:]
        #expect(asked["input"] as? String == "answer + 0", "\(seen)")
        #expect(asked["output"] as? [String] == ["console-ask"], "\(seen)")
        // Pressing Evaluate runs it, once.
        let evaluated = seen["evaluated"] as? [String] ?? []
        #expect(evaluated.suffix(2) == ["> answer + 0", "42"], "\(seen)")
        #expect(served.server.stdout.components(separatedBy: "POST /v1/debug/evaluate").count - 1 == 1)
        // Clear console: the program's lines and the console's, and they stay cleared.
        #expect((seen["before"] as? [String] ?? []).contains("second line"), "\(seen)")
        let cleared = seen["cleared"] as? [String: Any] ?? [:]
        #expect(cleared["program"] as? [String] == ["(cleared)"], "\(seen)")
        #expect(cleared["console"] as? [String] == [], "\(seen)")
        #expect(seen["clearedLater"] as? [String] == ["(cleared)"], "\(seen)")
        // Pressed before the page's first state came: the server-written lines went all the same.
        #expect((seen["snapshotBefore"] as? [String] ?? []).contains("second line"), "\(seen)")
        #expect(seen["snapshotCleared"] as? [String] == [], "\(seen)")
        #expect(seen["snapshotLater"] as? [String] == ["(cleared)"], "\(seen)")
        #expect((seen["scriptErrors"] as? [String] ?? []).isEmpty, "\(seen)")
        #expect(run.process.isRunning)
    }

    @Test func aWrongTokenEvaluatesNothing() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project("App", modules: ["main.lua": "answer = 6 * 7\nprint('started')\n"])
        let served = try ServedProject(root, in: fixture.url, extra: ["--verbose"])
        defer { served.server.interrupt() }
        let run = try BackgroundFlowpkg(
            ["run", root.path, "--live", served.url, "--token", ServedProject.token, "--watch"], in: fixture.url)
        defer { run.interrupt() }
        #expect(served.server.waitFor { stdout, _ in stdout.contains("started") }, "\(served.server.stdout)")
        let refused = try LiveSessionTests.dumpDOM(served.url + "/session?token=wrong#evaluate=answer", in: fixture.url)
        #expect(!refused.contains("console-result"))
        #expect(!served.server.stdout.contains("POST /v1/debug/evaluate"))
    }
}
