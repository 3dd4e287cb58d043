import FlowTestSupport
import Foundation
import Testing

/// `flowpkg serve` watches a project's path dependencies too: an edit in the dependency's
/// folder reaches the running program, which reloads the module and runs its start module again.
@Suite(.serialized) struct ServePathDependencyTests {
    @Test func editingAPathDependencyReloadsItInTheRunningProgram() throws {
        let fixture = try RunFixture()
        let uiKit = fixture.url.appendingPathComponent("ui-kit")
        try fixture.write(
            uiKit.appendingPathComponent("flowpkg.json"),
            #"{"name": "ui-kit", "identifier": "com.example.uikit", "version": "0.2.0", "sources": ["Sources"], "resources": [], "#
                + #""dependencies": {"base": {"path": "../base"}}}"#
                + "\n")
        try fixture.write(
            uiKit.appendingPathComponent("Sources/TextKit.lua"),
            "return { word = 'v1', base = require('Base').word }\n")
        // ui-kit's own path dependency, which the app reaches only through it.
        let base = fixture.url.appendingPathComponent("base")
        try fixture.write(
            base.appendingPathComponent("flowpkg.json"),
            #"{"name": "base", "identifier": "com.example.base", "version": "0.1.0", "sources": ["Sources"], "resources": []}"#
                + "\n")
        try fixture.write(base.appendingPathComponent("Sources/Base.lua"), "return { word = 'b1' }\n")
        let app = try fixture.project(
            "App",
            modules: [
                "main.lua":
                    "local TextKit = require 'TextKit'\nprint('main sees ' .. TextKit.word .. ' ' .. TextKit.base)\n"
            ])
        try fixture.write(
            app.appendingPathComponent("flowpkg.json"),
            #"{"name": "App", "identifier": "com.example.app", "version": "1.0.0", "sources": ["Sources"], "#
                + #""startModule": "main", "dependencies": {"ui-kit": {"path": "../ui-kit"}}}"# + "\n")
        let locked = try FlowpkgProcess.run(["lock"], in: app)
        #expect(locked.status == 0, "\(locked.stderr)")
        let package = try fixture.package(app, to: "App.luapkg")

        let served = try ServedProject(app, in: fixture.url)
        defer { served.server.interrupt() }
        let run = try BackgroundFlowpkg(
            ["run", package.path, "--live", served.url, "--token", ServedProject.token, "--watch"], in: fixture.url)
        defer { run.interrupt() }
        #expect(run.waitFor { stdout, _ in stdout.contains("main sees v1 b1") }, "\(run.stdout)\(run.stderr)")
        // The edit is in the dependency's folder, outside the served project.
        try fixture.write(
            uiKit.appendingPathComponent("Sources/TextKit.lua"),
            "return { word = 'v2', base = require('Base').word }\n")
        #expect(
            run.waitFor { stdout, _ in stdout.contains("main sees v2 b1") },
            "stdout: \(run.stdout)\nstderr: \(run.stderr)\nserve: \(served.server.stdout)\(served.server.stderr)")
        // And in the dependency's own dependency.
        try fixture.write(base.appendingPathComponent("Sources/Base.lua"), "return { word = 'b2' }\n")
        #expect(
            run.waitFor { stdout, _ in stdout.contains("main sees v2 b2") },
            "stdout: \(run.stdout)\nstderr: \(run.stderr)\nserve: \(served.server.stdout)\(served.server.stderr)")
        #expect(run.process.isRunning)
    }
}
