import FlowTestSupport
import Foundation
import Testing

/// `flowpkg run --live` against a real `flowpkg serve` on loopback: every row of DESIGN.md's
/// "Which source wins at start-up" that a command line can show.
@Suite(.serialized) struct LiveRunTests {
    static let main = """
        local helper = require "helper"
        print("main sees " .. helper.word)
        addMessageHandler("system.did_load_module", function(name)
            print("reloaded " .. name .. ", helper says " .. require("helper").word)
        end)
        local state = setmetatable({}, { __newindex = function(_, _, value) print("note: " .. value) end })
        getResource("note", "txt", state, "note")
        """

    /// A project, its package, and a second copy of the project for the live server to serve.
    func setUp(_ fixture: RunFixture, liveIdentifier: String = "com.example.app") throws -> (package: URL, live: URL) {
        let modules = [
            "main.lua": Self.main, "helper.lua": "return { word = 'package' }\n",
            "extra.lua": "return { word = 'extra' }\n",
        ]
        let root = try fixture.project("App", modules: modules, resources: ["note.txt": "from the package"])
        let package = try fixture.package(root, to: "App.luapkg")
        let live = try fixture.project(
            "Live", identifier: liveIdentifier,
            modules: ["main.lua": Self.main, "helper.lua": "return { word = 'live' }\n"],
            resources: ["note.txt": "from the live source"])
        return (package, live)
    }

    @Test func withoutLiveOnlyThePackageServes() throws {
        let fixture = try RunFixture()
        let (package, _) = try setUp(fixture)
        let result = try FlowpkgProcess.run(["run", package.path, "--trace"], in: fixture.url)
        #expect(result.status == 0)
        #expect(result.stdout.contains("main sees package"))
        #expect(!result.stderr.contains("live"))
        #expect(result.stderr.contains("trace: module helper <- package"))
    }

    @Test func aConnectedLiveSourceWinsForWhatItServes() throws {
        let fixture = try RunFixture()
        let (package, live) = try setUp(fixture)
        let served = try ServedProject(live, in: fixture.url)
        defer { served.server.interrupt() }
        let result = try FlowpkgProcess.run(
            [
                "run", package.path, "--live", served.url, "--token", ServedProject.token,
                "--trace",
            ], in: fixture.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("main sees live"))
        #expect(result.stdout.contains("note: from the live source"))
        #expect(result.stderr.contains("trace: module helper <- live \(served.url)"))
        #expect(result.stderr.contains("trace: resource note.txt <- live \(served.url)"))
    }

    @Test func theEmbeddedPackageServesWhatTheLiveSourceLacks() throws {
        let fixture = try RunFixture()
        let (package, live) = try setUp(fixture)
        try fixture.write(
            live.appendingPathComponent("Sources/main.lua"), "print(require('extra').word .. ' from ' .. 'package')\n")
        let served = try ServedProject(live, in: fixture.url)
        defer { served.server.interrupt() }
        let result = try FlowpkgProcess.run(
            ["run", package.path, "--live", served.url, "--token", ServedProject.token, "--trace"],
            in: fixture.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("extra from package"))
        #expect(result.stderr.contains("trace: module main <- live"))
        #expect(result.stderr.contains("trace: module extra <- package"))
    }

    @Test func nothingConnectedInTimeRunsThePackage() throws {
        let fixture = try RunFixture()
        let (package, _) = try setUp(fixture)
        let result = try FlowpkgProcess.run(
            [
                "run", package.path, "--live", "http://127.0.0.1:9", "--token", "some-token",
                "--connection-timeout", "0.3", "--trace",
            ], in: fixture.url)
        #expect(result.status == 0)
        #expect(result.stdout.contains("main sees package"))
        #expect(result.stderr.contains("no live source at http://127.0.0.1:9"))
        #expect(result.stderr.contains("trace: module helper <- package"))
    }

    @Test func aLaterConnectionTakesOver() throws {
        let fixture = try RunFixture()
        let (package, live) = try setUp(fixture)
        // Learn a free port, then leave it empty while the program starts.
        let first = try ServedProject(live, in: fixture.url)
        first.server.interrupt()
        let port = String(first.url.split(separator: ":").last!)
        let run = try BackgroundFlowpkg(
            [
                "run", package.path, "--live", first.url, "--token", ServedProject.token,
                "--connection-timeout", "0.2", "--watch",
            ], in: fixture.url)
        defer { run.interrupt() }
        #expect(run.waitFor { stdout, _ in stdout.contains("main sees package") })
        let server = try BackgroundFlowpkg(
            ["serve", live.path, "--port", port, "--token", ServedProject.token], in: fixture.url)
        defer { server.interrupt() }
        #expect(
            run.waitFor { stdout, _ in stdout.contains("main sees live") || stdout.contains("helper says live") },
            "stdout: \(run.stdout)\nstderr: \(run.stderr)")
        #expect(run.stderr.contains("live: connected to"))
    }

    @Test func anotherIdentifierIsRefusedAndThePackageRuns() throws {
        let fixture = try RunFixture()
        let (package, live) = try setUp(fixture, liveIdentifier: "com.example.other")
        let served = try ServedProject(live, in: fixture.url)
        defer { served.server.interrupt() }
        let result = try FlowpkgProcess.run(
            ["run", package.path, "--live", served.url, "--token", ServedProject.token],
            in: fixture.url)
        #expect(result.status == 0)
        #expect(result.stdout.contains("main sees package"))
        #expect(result.stderr.contains("warning: live source refused"))
        #expect(result.stderr.contains("com.example.other"))
    }

    @Test func aWrongTokenIsRefusedAndThePackageRuns() throws {
        let fixture = try RunFixture()
        let (package, live) = try setUp(fixture)
        // Request lines, a refused one included, only with --verbose.
        let served = try ServedProject(live, in: fixture.url, extra: ["--verbose"])
        defer { served.server.interrupt() }
        let result = try FlowpkgProcess.run(
            ["run", package.path, "--live", served.url, "--token", "not-the-token"],
            in: fixture.url)
        #expect(result.status == 0)
        #expect(result.stdout.contains("main sees package"))
        #expect(result.stderr.contains("rejected the token"))
        #expect(served.server.stdout.contains("→ 401"))
    }

    @Test func anEditIsAppliedWhileRunning() throws {
        let fixture = try RunFixture()
        let (package, live) = try setUp(fixture)
        let served = try ServedProject(live, in: fixture.url)
        defer { served.server.interrupt() }
        let run = try BackgroundFlowpkg(
            ["run", package.path, "--live", served.url, "--token", ServedProject.token, "--watch"],
            in: fixture.url)
        #expect(
            run.waitFor { stdout, _ in
                stdout.contains("main sees live") && stdout.contains("note: from the live source")
            })
        try fixture.write(live.appendingPathComponent("Sources/helper.lua"), "return { word = 'edited' }\n")
        #expect(
            run.waitFor { stdout, _ in stdout.contains("reloaded helper, helper says edited") },
            "stdout: \(run.stdout)\nstderr: \(run.stderr)")
        try fixture.write(live.appendingPathComponent("Resources/note.txt"), "changed note")
        #expect(run.waitFor { stdout, _ in stdout.contains("note: changed note") })
        #expect(run.interrupt() == 130)
        #expect(served.server.stdout.contains("change r"))
    }

    /// Ctrl-C ends a watch with the shell's status for it, and the connection it closes is
    /// not reported as lost.
    @Test func ctrlCEndsAWatchWith130AndNoFalseWarning() throws {
        let fixture = try RunFixture()
        let (package, live) = try setUp(fixture)
        let served = try ServedProject(live, in: fixture.url, extra: ["--verbose"])
        defer { served.server.interrupt() }
        let run = try BackgroundFlowpkg(
            ["run", package.path, "--live", served.url, "--token", ServedProject.token, "--watch"],
            in: fixture.url)
        #expect(
            run.waitFor { stdout, stderr in stdout.contains("main sees live") && stderr.contains("live: connected") })
        // Let the change stream open: the interrupt must close a live connection.
        #expect(served.server.waitFor { stdout, _ in stdout.contains("/events") }, "\(served.server.stdout)")
        #expect(run.interrupt() == 130)
        #expect(!run.stderr.contains("lost"), "\(run.stderr)")
        #expect(!run.stderr.contains("warning"), "\(run.stderr)")
        #expect(!run.stderr.contains("error"), "\(run.stderr)")
    }

    /// With --watch there is nothing to do once the live source refuses the token: exit 1.
    @Test func aRejectedTokenWithWatchExitsNonZero() throws {
        let fixture = try RunFixture()
        let (package, live) = try setUp(fixture)
        let served = try ServedProject(live, in: fixture.url)
        defer { served.server.interrupt() }
        let result = try FlowpkgProcess.run(
            ["run", package.path, "--live", served.url, "--token", "not-the-token", "--watch"],
            in: fixture.url)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("error: --watch has nothing to watch: live source \(served.url) rejected the token"),
            "\(result.stderr)")
        #expect(!result.stdout.contains("main sees"))
    }

    /// A server that starts later with another token: the watch ends then, with status 1.
    @Test func aLaterRefusalEndsTheWatch() throws {
        let fixture = try RunFixture()
        let (package, live) = try setUp(fixture)
        let first = try ServedProject(live, in: fixture.url)
        first.server.interrupt()
        let port = String(first.url.split(separator: ":").last!)
        let run = try BackgroundFlowpkg(
            [
                "run", package.path, "--live", first.url, "--token", ServedProject.token,
                "--connection-timeout", "0.2", "--watch",
            ], in: fixture.url)
        defer { run.interrupt() }
        #expect(run.waitFor { stdout, _ in stdout.contains("main sees package") })
        let server = try BackgroundFlowpkg(
            ["serve", live.path, "--port", port, "--token", "another-token"], in: fixture.url)
        defer { server.interrupt() }
        run.process.waitUntilExit()
        #expect(run.process.terminationStatus == 1)
        #expect(
            run.stderr.contains("error: --watch has nothing to watch: live source \(first.url) rejected the token"),
            "\(run.stderr)")
    }

    /// --trace lines come as items load, while the program still runs, not at exit.
    @Test func traceLinesArePrintedAsItemsLoad() throws {
        let fixture = try RunFixture()
        let (package, live) = try setUp(fixture)
        let served = try ServedProject(live, in: fixture.url)
        defer { served.server.interrupt() }
        let run = try BackgroundFlowpkg(
            [
                "run", package.path, "--live", served.url, "--token", ServedProject.token,
                "--watch", "--trace",
            ], in: fixture.url)
        #expect(
            run.waitFor { _, stderr in
                stderr.contains("trace: module main <- live \(served.url)")
                    && stderr.contains("trace: module helper <- live")
                    && stderr.contains("trace: resource note.txt <- live")
            }, "\(run.stderr)")
        #expect(run.process.isRunning)
        try fixture.write(live.appendingPathComponent("Sources/helper.lua"), "return { word = 'traced' }\n")
        #expect(
            run.waitFor { _, stderr in stderr.components(separatedBy: "trace: module helper <- live").count > 2 },
            "\(run.stderr)")
        #expect(run.interrupt() == 130)
    }

    @Test func aDroppedConnectionKeepsTheProgramRunning() throws {
        let fixture = try RunFixture()
        let (package, live) = try setUp(fixture)
        let served = try ServedProject(live, in: fixture.url)
        let port = String(served.url.split(separator: ":").last!)
        let run = try BackgroundFlowpkg(
            ["run", package.path, "--live", served.url, "--token", ServedProject.token, "--watch"],
            in: fixture.url)
        defer { run.interrupt() }
        #expect(run.waitFor { stdout, _ in stdout.contains("main sees live") })
        served.server.interrupt()
        #expect(run.waitFor { _, stderr in stderr.contains("what is loaded keeps running") }, "stderr: \(run.stderr)")
        #expect(run.process.isRunning)
        // The source comes back on the same port: the program connects again and takes changes.
        let again = try BackgroundFlowpkg(
            ["serve", live.path, "--port", port, "--token", ServedProject.token], in: fixture.url)
        defer { again.interrupt() }
        #expect(
            run.waitFor { _, stderr in stderr.components(separatedBy: "live: connected to").count > 2 },
            "stderr: \(run.stderr)")
        try fixture.write(live.appendingPathComponent("Sources/helper.lua"), "return { word = 'back' }\n")
        #expect(run.waitFor { stdout, _ in stdout.contains("helper says back") }, "stdout: \(run.stdout)")
    }

    @Test func liveOptionsGoTogether() throws {
        let fixture = try RunFixture()
        let (package, _) = try setUp(fixture)
        let watchAlone = try FlowpkgProcess.run(["run", package.path, "--watch"], in: fixture.url)
        #expect(watchAlone.status == 64)
        #expect(watchAlone.stderr.contains("--live"))
        let noToken = try FlowpkgProcess.run(["run", package.path, "--live", "http://127.0.0.1:7315"], in: fixture.url)
        #expect(noToken.status == 64)
        #expect(noToken.stderr.contains("--token"))
        let badURL = try FlowpkgProcess.run(
            ["run", package.path, "--live", "127.0.0.1", "--token", "abcdefgh"], in: fixture.url)
        #expect(badURL.status == 64)
        let https = try FlowpkgProcess.run(
            ["run", package.path, "--live", "https://127.0.0.1:7315", "--token", "abcdefgh"], in: fixture.url)
        #expect(https.status == 64)
        #expect(https.stderr.contains("http:// URL (flowpkg serve speaks plain HTTP)"))
    }
}
