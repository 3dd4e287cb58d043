import FlowTestSupport
import Foundation
import Testing

/// `flowpkg dev`, and `flowpkg run DIR --watch` without `--live`, as a developer runs them: on a
/// real pseudo-terminal (Python's `pty`, driven by `Scripts/dev_pty.py`), with real saves.
@Suite(.serialized) struct DevCommandTests {
    static let scripts = CLITestFolder.url.appendingPathComponent("Scripts")

    /// The URL printed once; a save re-runs; a broken save prints its diagnostic and keeps the
    /// old code, its syntax error printed once (issue 46); an ended program says so and starts
    /// again at a save; a top-level crash, then `r` + Enter, starts it again; `r` + Enter also
    /// starts afresh a program still running after a reload failed at its top level (issue 46);
    /// Ctrl-C exits 130 and leaves no process of its session.
    @Test func theWholeLoopOnATerminal() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let result = try FlowpkgProcess.run(
            [
                "python3", Self.scripts.appendingPathComponent("dev_pty.py").path, FlowpkgProcess.executable.path,
                fixture.url.path,
            ],
            in: fixture.url, executable: URL(fileURLWithPath: "/usr/bin/env"))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("ok\n"), "\(result.stdout)\(result.stderr)")
        // The page's URL, once.
        #expect(result.stdout.components(separatedBy: "Session page: ").count == 2, "\(result.stdout)")
        // No request lines without --verbose.
        #expect(!result.stdout.contains(" → 200"), "\(result.stdout)")
    }

    /// A second dev takes the next free port from serve's default, and prints its page once.
    @Test func aSecondDevTakesTheNextFreePort() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        _ = try fixture.project("App", modules: ["main.lua": "print(\"dev runs\")\n"])
        func port(of dev: BackgroundFlowpkg) -> Int? {
            var found: Int?
            dev.waitFor { stdout, _ in
                found = stdout.split(separator: "\n").first { $0.hasPrefix("Session page: http://127.0.0.1:") }
                    .flatMap { Int($0.dropFirst("Session page: http://127.0.0.1:".count).prefix { $0.isNumber }) }
                return found != nil && stdout.contains("dev runs")
            }
            return found
        }
        let first = try BackgroundFlowpkg(["dev", "App"], in: fixture.url)
        defer { first.interrupt() }
        let firstPort = try #require(port(of: first), "\(first.stdout)\(first.stderr)")
        let second = try BackgroundFlowpkg(["dev", "App"], in: fixture.url)
        defer { second.interrupt() }
        let secondPort = try #require(port(of: second), "\(second.stdout)\(second.stderr)")
        #expect(firstPort >= 7315 && secondPort > firstPort, "\(firstPort) \(secondPort)")
        #expect(second.stdout.components(separatedBy: "Session page:").count == 2)
        #expect(second.interrupt() == 130)
        #expect(second.stdout.hasSuffix("Stopped.\n"), "\(second.stdout)")
    }

    /// `run DIR --watch` with no live source: the same loop, no page, reloads as dev does.
    @Test func runWatchWithoutLiveFollowsTheFolder() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project("App", modules: ["main.lua": "print(\"first\")\n"])
        let run = try BackgroundFlowpkg(["run", "App", "--watch"], in: fixture.url)
        #expect(run.waitFor { stdout, _ in stdout.contains("first") }, "\(run.stdout)\(run.stderr)")
        try fixture.write(root.appendingPathComponent("Sources/main.lua"), "print(\"second\")\n")
        #expect(run.waitFor { stdout, _ in stdout.contains("second") }, "\(run.stdout)\(run.stderr)")
        #expect(!run.stdout.contains("Session page"))
        #expect(run.interrupt() == 130)
    }

    /// dev killed with SIGKILL (which it cannot pass on): its program ends too.
    @Test func theProgramEndsWhenDevIsKilled() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        _ = try fixture.project("App", modules: ["main.lua": "print(\"dev runs\")\n"])
        let dev = try BackgroundFlowpkg(["dev", "App"], in: fixture.url)
        defer { dev.interrupt() }
        #expect(dev.waitFor { stdout, _ in stdout.contains("dev runs") }, "\(dev.stdout)\(dev.stderr)")
        let children = try FlowpkgProcess.run(
            ["pgrep", "-P", "\(dev.process.processIdentifier)"], in: fixture.url,
            executable: URL(fileURLWithPath: "/usr/bin/env"))
        let child = try #require(pid_t(children.stdout.split(separator: "\n").first ?? ""), "\(children.stdout)")
        kill(dev.process.processIdentifier, SIGKILL)
        dev.process.waitUntilExit()
        // Waits for the child to go (kill with signal 0 fails once it is reaped by init).
        let deadline = Date().addingTimeInterval(10)
        while kill(child, 0) == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(kill(child, 0) != 0, "the program \(child) outlived dev")
    }

    @Test func runWatchWithoutLiveNeedsAProjectFolder() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        try fixture.write(fixture.url.appendingPathComponent("x.luapkg"), "not a package")
        let result = try FlowpkgProcess.run(["run", "x.luapkg", "--watch"], in: fixture.url)
        #expect(result.status == 64)
        #expect(result.stderr.contains("--watch without --live follows a project folder"), "\(result.stderr)")
        let token = try FlowpkgProcess.run(["run", ".", "--token", "abcdefgh"], in: fixture.url)
        #expect(token.status == 64)
        #expect(token.stderr.contains("--token goes with --live URL"), "\(token.stderr)")
    }

    /// No project, or a bad option: a clear message and 1 or 64, nothing left running.
    @Test func badInputIsRefused() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let missing = try FlowpkgProcess.run(["dev", "Nowhere"], in: fixture.url)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("Nowhere' does not exist [FP108]"), "\(missing.stderr)")
        #expect(!missing.stdout.contains("Session page"))
        let editor = try FlowpkgProcess.run(["dev", ".", "--editor", " "], in: fixture.url)
        #expect(editor.status == 64)
        #expect(editor.stderr.contains("--editor takes vscode, idea, a URL template or a command"), "\(editor.stderr)")
    }

    /// empty-ios-app needs its app: run and dev say so and name the page to read.
    @Test func anIOSProjectSaysItNeedsItsHost() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let made = try FlowpkgProcess.run(["new", "Phone", "--template", "empty-ios-app"], in: fixture.url)
        #expect(made.status == 0, "\(made.stderr)")
        for command in [["run", "Phone"], ["dev", "Phone"]] {
            let result = try FlowpkgProcess.run(command, in: fixture.url)
            #expect(result.status == 1, "\(command): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("environment is codeflow-ios"), "\(command): \(result.stderr)")
            #expect(result.stderr.contains("needs the app host"))
            #expect(result.stderr.contains("Host/README.md"))
            #expect(!result.stderr.contains("not found"), "\(command): \(result.stderr)")
        }
    }
}
