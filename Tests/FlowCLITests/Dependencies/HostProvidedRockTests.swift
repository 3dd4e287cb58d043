import FlowTestSupport
import Foundation
import Testing

/// A rock with C code that the host provides (`externalModules`), asked for directly in
/// flowpkg.json (issue 46, bugs 1 and 12): the lock records it as the host's and stays whole.
@Suite(.serialized) struct HostProvidedRockTests {
    func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// A server with inspect (pure Lua) and cthing (a C rock), and an app that uses both, its
    /// host providing cthing.
    func makeApp(in scratch: Scratch) throws -> (app: URL, cache: URL) {
        let server = try LocalRocksServer(in: scratch.url)
        try server.publishPure(
            "inspect", "3.1.1-1",
            modules: ["inspect": ("inspect.lua", try Data(contentsOf: LocalRocksServer.debianLuaFile("inspect.lua")))])
        try server.publishC("cthing", "1.0-1", module: "cthing")
        let app = scratch.url.appendingPathComponent("app")
        try write(
            """
            {"name": "app", "identifier": "com.example.app", "version": "0.1.0", "startModule": "Main",
             "sources": ["Sources"], "resources": [], "rocksServers": ["../rocks"], "externalModules": ["cthing"]}

            """, to: app.appendingPathComponent("flowpkg.json"))
        try write(
            "local inspect = require 'inspect'\nprint(inspect({ answer = 42 }))\n",
            to: app.appendingPathComponent("Sources/Main.lua"))
        return (app, scratch.url.appendingPathComponent("cache"))
    }

    @Test func aDirectHostProvidedRockKeepsTheLockWhole() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let (app, cache) = try makeApp(in: scratch)
        func run(_ arguments: [String]) throws -> FlowpkgProcess.Result {
            try DependenciesEndToEndTests.flowpkg(arguments, in: app, cache: cache)
        }
        var result = try run(["add", "inspect"])
        #expect(result.status == 0, "\(result.stderr)")
        result = try run(["add", "cthing"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("cthing 1.0-1 provided by the host (cthing)"), "\(result.stdout)")
        // A direct request with no constraint is pinned to its release line, as a locked rock is.
        #expect(
            DependenciesEndToEndTests.read(app.appendingPathComponent("flowpkg.json")).contains(
                #""cthing": ">= 1.0, < 2""#))
        let lockBytes = try Data(contentsOf: app.appendingPathComponent("flowpkg.lock"))

        result = try run(["lock"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("up to date"), "\(result.stdout)")
        #expect(try Data(contentsOf: app.appendingPathComponent("flowpkg.lock")) == lockBytes)

        result = try run(["validate"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("[FP802]") && !result.stdout.contains("[FP401]"), "\(result.stdout)")

        result = try run(["run", "."])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("answer = 42"), "\(result.stdout)")

        result = try run(["export", "--locked", "-o", "../app.luapkg"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")

        // A changed constraint makes the lock stale, as it does for any rock.
        let edited = DependenciesEndToEndTests.read(app.appendingPathComponent("flowpkg.json"))
            .replacingOccurrences(of: #""cthing": ">= 1.0, < 2""#, with: #""cthing": ">= 1.0""#)
        try write(edited, to: app.appendingPathComponent("flowpkg.json"))
        result = try run(["export", "--locked", "-o", "../app2.luapkg"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("[FP802]") && result.stdout.contains("cthing"), "\(result.stdout)")
    }

    @Test func removeTakesAHostProvidedRockOutOfTheLock() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let (app, cache) = try makeApp(in: scratch)
        func run(_ arguments: [String]) throws -> FlowpkgProcess.Result {
            try DependenciesEndToEndTests.flowpkg(arguments, in: app, cache: cache)
        }
        #expect(try run(["add", "inspect"]).status == 0)
        #expect(try run(["add", "cthing"]).status == 0)
        #expect(DependenciesEndToEndTests.read(app.appendingPathComponent("flowpkg.lock")).contains("\"cthing\""))

        let result = try run(["remove", "cthing"])
        #expect(result.status == 0, "\(result.stderr)")
        let lock = DependenciesEndToEndTests.read(app.appendingPathComponent("flowpkg.lock"))
        #expect(!lock.contains("cthing"), "\(lock)")
        #expect(lock.contains("\"inspect\""), "\(lock)")
        #expect(result.stdout.contains("- cthing 1.0-1"), "\(result.stdout)")
    }
}
