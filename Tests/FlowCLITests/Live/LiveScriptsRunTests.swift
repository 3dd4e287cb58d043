import FlowTestSupport
import Foundation
import Testing

/// Issue 24: `flowpkg serve` serves a project's scripts (Lua files loaded by path: a prosody
/// style `*.lib.lua`, a file under a widelands-style `*.wmf/` folder) as it serves modules. A
/// program under `run --live` gets them from the live source; when one is saved, a script the
/// program ran with `dofile` runs again, and the next `loadfile` gets the new code.
@Suite(.serialized) struct LiveScriptsRunTests {
    static let main = """
        dofile("muc/greet.lib.lua")
        """

    /// A script that prints what another script, loaded with loadfile, returns.
    static func greet(_ word: String) -> String {
        """
        local campaign = assert(loadfile("campaigns/atl01.wmf/scripting/init.lua"))
        print("greet says \(word), campaign " .. campaign())

        """
    }

    func project(_ fixture: RunFixture, _ name: String, word: String, identifier: String = "com.example.app") throws
        -> URL
    {
        try fixture.project(
            name, identifier: identifier,
            modules: [
                "main.lua": Self.main,
                "muc/greet.lib.lua": Self.greet(word),
                "campaigns/atl01.wmf/scripting/init.lua": "return '\(word)'\n",
            ])
    }

    @Test func scriptsComeFromTheLiveSourceAndRunAgainWhenSaved() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let package = try fixture.package(try project(fixture, "App", word: "package"), to: "App.luapkg")
        let live = try project(fixture, "Live", word: "live")
        let served = try ServedProject(live, in: fixture.url)
        defer { served.server.interrupt() }
        let run = try BackgroundFlowpkg(
            ["run", package.path, "--live", served.url, "--token", ServedProject.token, "--watch", "--trace"],
            in: fixture.url)
        defer { run.interrupt() }
        #expect(
            run.waitFor { stdout, _ in stdout.contains("greet says live, campaign live") },
            "stdout: \(run.stdout)\nstderr: \(run.stderr)")
        #expect(!run.stdout.contains("package"), "\(run.stdout)")

        // A script only loaded with loadfile is not run by its change.
        try fixture.write(
            live.appendingPathComponent("Sources/campaigns/atl01.wmf/scripting/init.lua"), "return 'saved'\n")
        #expect(
            run.waitFor { _, stderr in stderr.contains("live: script campaigns/atl01.wmf/scripting/init.lua changed") },
            "\(run.stderr)")
        #expect(!run.stdout.contains("campaign saved"))

        // A script run with dofile runs again when it is saved, and its loadfile gets the saved code.
        try fixture.write(live.appendingPathComponent("Sources/muc/greet.lib.lua"), Self.greet("edited"))
        #expect(
            run.waitFor { stdout, _ in stdout.contains("greet says edited, campaign saved") },
            "stdout: \(run.stdout)\nstderr: \(run.stderr)")
        #expect(run.stderr.contains("live: script muc/greet.lib.lua changed"), "\(run.stderr)")
        #expect(
            served.server.waitFor { stdout, _ in stdout.contains("scripts muc/greet.lib.lua") },
            "\(served.server.stdout)")
        #expect(run.interrupt() == 130)
    }
}
