import FlowTestSupport
import Foundation
import Testing

/// `flowpkg run --live --watch`: editing a module the start module required runs the start
/// module again (issue 12), through `LiveSession.attach`.
@Suite(.serialized) struct LiveDependentsRunTests {
    @Test func editingARequiredModuleRerunsTheStartModule() throws {
        let fixture = try RunFixture()
        let modules = [
            "main.lua": "local helper = require 'helper'\nprint('main sees ' .. helper.word)\n",
            "helper.lua": "return { word = 'package' }\n",
        ]
        let root = try fixture.project("App", modules: modules)
        let package = try fixture.package(root, to: "App.luapkg")
        let live = try fixture.project("Live", modules: modules)
        let served = try ServedProject(live, in: fixture.url)
        defer { served.server.interrupt() }
        let run = try BackgroundFlowpkg(
            ["run", package.path, "--live", served.url, "--token", ServedProject.token, "--watch"],
            in: fixture.url)
        defer { run.interrupt() }
        #expect(run.waitFor { stdout, _ in stdout.contains("main sees package") })
        try fixture.write(live.appendingPathComponent("Sources/helper.lua"), "return { word = 'edited' }\n")
        #expect(
            run.waitFor { stdout, _ in stdout.contains("main sees edited") },
            "stdout: \(run.stdout)\nstderr: \(run.stderr)")
        // A syntax error in the edit is reported, and the program keeps running.
        try fixture.write(live.appendingPathComponent("Sources/helper.lua"), "return {\n")
        #expect(
            run.waitFor { _, stderr in stderr.contains("error: reloading helper:") && stderr.contains("helper.lua:") },
            "stderr: \(run.stderr)")
        #expect(run.process.isRunning)
    }
}
