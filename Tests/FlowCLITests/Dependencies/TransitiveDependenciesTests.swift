import FlowTestSupport
import Foundation
import Testing

/// A dependency's own dependencies, end to end against a rocks server in a folder: a
/// lua-library project used by path that needs a rock and another path project, a library
/// exported as a .luapkg whose manifest lists what it was built with, and what goes wrong: a
/// changed path dependency, one name from two places, one module from two dependencies, a cycle.
@Suite(.serialized) struct TransitiveDependenciesTests {
    struct Fixture {
        let scratch: Scratch
        let server: LocalRocksServer
        let cache: URL
        var app: URL { scratch.url.appendingPathComponent("app") }
        var lib: URL { scratch.url.appendingPathComponent("lib") }
        var util: URL { scratch.url.appendingPathComponent("util") }

        init() throws {
            scratch = try Scratch("cli")
            server = try LocalRocksServer(in: scratch.url)
            try server.publishPure(
                "inspect", "3.1.1-1",
                modules: [
                    "inspect": ("inspect.lua", try Data(contentsOf: LocalRocksServer.debianLuaFile("inspect.lua")))
                ])
            try DependenciesEndToEndTests.publishGreet(server, "1.0-1")
            cache = scratch.url.appendingPathComponent("cache")
        }

        func run(_ arguments: [String], in folder: URL, _ environment: [String: String] = [:]) throws
            -> FlowpkgProcess.Result
        {
            try DependenciesEndToEndTests.flowpkg(arguments, in: folder, cache: cache, environment: environment)
        }

        func write(_ text: String, to folder: URL, _ path: String) throws {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }

        /// flowpkg.json of a project named `name`, with `extra` members (`"dependencies": {...}`).
        func projectFile(_ name: String, start: String? = nil, _ extra: String = "") -> String {
            """
            {
              "name": "\(name)", "identifier": "com.example.\(name)", "version": "0.1.0",
              \(start.map { "\"startModule\": \"\($0)\", " } ?? "")"sources": ["Sources"], "resources": [],
              "environment": "lua", "rocksServers": ["../rocks"]\(extra.isEmpty ? "" : ",\n  " + extra)
            }

            """
        }

        /// util (module Util), lib (module Lib: needs inspect ~> 3.1 and util by path), and an
        /// app that requires Lib.
        func makeProjects() throws {
            #expect(
                try run(["new", "util", "--template", "lua-library", "--set", "module=Util"], in: scratch.url).status
                    == 0)
            #expect(
                try run(["new", "lib", "--template", "lua-library", "--set", "module=Lib"], in: scratch.url).status == 0
            )
            try write(projectFile("util"), to: util, "flowpkg.json")
            try write("return { tag = function(s) return '<' .. s .. '>' end }\n", to: util, "Sources/Util/init.lua")
            try write(
                projectFile("lib", #""dependencies": {"inspect": "~> 3.1", "util": {"path": "../util"}}"#), to: lib,
                "flowpkg.json")
            try write(
                """
                local inspect = require "inspect"
                local Util = require "Util"
                return { show = function(t) return Util.tag(inspect(t)) end }

                """, to: lib, "Sources/Lib/init.lua")
            try write(projectFile("app", start: "Main"), to: app, "flowpkg.json")
            try write("local Lib = require \"Lib\"\nprint(Lib.show({ 1, 2 }))\n", to: app, "Sources/Main.lua")
        }

        func read(_ url: URL) -> String { DependenciesEndToEndTests.read(url) }
        var lock: String { read(app.appendingPathComponent("flowpkg.lock")) }

        func lockEntry(_ name: String) throws -> [String: Any]? {
            let root = try JSONSerialization.jsonObject(with: Data(lock.utf8)) as? [String: Any]
            return (root?["dependencies"] as? [[String: Any]])?.first { $0["name"] as? String == name }
        }
    }

    @Test func aPathDependencyBringsItsOwnRockAndPathDependencies() throws {
        let fixture = try Fixture()
        defer { fixture.scratch.remove() }
        try fixture.makeProjects()
        let app = fixture.app

        var result = try fixture.run(["add", "--path", "../lib"], in: app)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("+ inspect 3.1.1-1 (rock"), "\(result.stdout)")
        #expect(result.stdout.contains("+ util 0.1.0 (path"), "\(result.stdout)")
        // The lock records lib's own dependencies, and pins each of them.
        let lib = try #require(try fixture.lockEntry("lib"))
        #expect(lib["dependencies"] as? [String] == ["inspect ~> 3.1", "util (path ../util)"])
        #expect(lib["requested"] as? String == "../lib")
        let util = try #require(try fixture.lockEntry("util"))
        #expect(util["kind"] as? String == "path" && util["origin"] as? String == "../util")
        #expect(util["requested"] == nil)
        let inspect = try #require(try fixture.lockEntry("inspect"))
        #expect(inspect["kind"] as? String == "rock" && inspect["requested"] == nil)

        // Locking again changes nothing and needs no luarocks: lib's rock is pinned already.
        let lockText = fixture.lock
        result = try fixture.run(["lock"], in: app, ["PATH": "/nonexistent"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fixture.lock == lockText)

        let fromFolder = try fixture.run(["run", "."], in: app)
        #expect(fromFolder.status == 0, "\(fromFolder.stderr)")
        #expect(fromFolder.stdout == "<{ 1, 2 }>\n")
        result = try fixture.run(["export", "--locked", "-o", "../app.luapkg"], in: app)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try fixture.run(["run", "../app.luapkg"], in: app).stdout == fromFolder.stdout)
        let manifest = try LocalRocksServer.program(
            "/usr/bin/unzip", ["-p", "../app.luapkg", "manifest.json"], in: app)
        #expect(
            manifest.contains(
                #"{"name": "util", "kind": "path", "version": "0.1.0", "modules": ["Util", "Util.words", "Util.wrap"]}"#
            ))
        #expect(
            manifest.contains(#"{"name": "inspect", "kind": "rock", "version": "3.1.1-1", "modules": ["inspect"]}"#))

        // An edit in the dependency's dependency fails --locked, naming the file.
        let utilFile = fixture.util.appendingPathComponent("Sources/Util/init.lua")
        try fixture.write(
            "return { tag = function(s) return '[' .. s .. ']' end }\n", to: fixture.util, "Sources/Util/init.lua")
        result = try fixture.run(["export", "--locked", "-o", "../edited.luapkg"], in: app)
        #expect(result.status == 1)
        #expect(result.stdout.contains("[FP814]") && result.stdout.contains(utilFile.path), "\(result.stdout)")
        #expect(try fixture.run(["lock"], in: app).status == 0)
        #expect(try fixture.run(["run", "."], in: app).stdout == "[{ 1, 2 }]\n")

        // lib asks for another rock: the lock is out of date until `lock` takes it.
        try fixture.write(
            fixture.projectFile(
                "lib", #""dependencies": {"inspect": "~> 3.1", "util": {"path": "../util"}, "greet": ">= 1.0"}"#),
            to: fixture.lib, "flowpkg.json")
        result = try fixture.run(["export", "--locked", "-o", "../stale.luapkg"], in: app)
        #expect(result.status == 1)
        #expect(
            result.stdout.contains("[FP802]") && result.stdout.contains("the path dependency 'lib'")
                && result.stdout.contains(fixture.lib.appendingPathComponent("flowpkg.json").path), "\(result.stdout)")
        result = try fixture.run(["lock"], in: app)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("+ greet 1.0-1"), "\(result.stdout)")
        #expect(try fixture.run(["export", "--locked", "-o", "../greet.luapkg"], in: app).status == 0)

        // The same name from two places is refused, naming both; nothing is written.
        let projectBefore = fixture.read(app.appendingPathComponent("flowpkg.json"))
        let lockBefore = fixture.lock
        try FileManager.default.copyItem(at: fixture.util, to: fixture.scratch.url.appendingPathComponent("util2"))
        try fixture.write(
            fixture.projectFile(
                "app", start: "Main", #""dependencies": {"lib": {"path": "../lib"}, "util": {"path": "../util2"}}"#),
            to: app, "flowpkg.json")
        result = try fixture.run(["lock"], in: app)
        #expect(result.status == 1)
        #expect(result.stderr.contains("[FP816]") && result.stderr.contains("'util'"), "\(result.stderr)")
        #expect(result.stderr.contains("(../util2)") && result.stderr.contains("(../util), which 'lib' depends on"))
        #expect(fixture.lock == lockBefore)

        // One module from two dependencies: util2 named otherwise still provides Util.
        try fixture.write(
            fixture.projectFile("util2"), to: fixture.scratch.url.appendingPathComponent("util2"), "flowpkg.json")
        try fixture.write(
            fixture.projectFile(
                "app", start: "Main", #""dependencies": {"lib": {"path": "../lib"}, "util2": {"path": "../util2"}}"#),
            to: app, "flowpkg.json")
        result = try fixture.run(["lock"], in: app)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("[FP811]") && result.stderr.contains("'Util'")
                && result.stderr.contains("'util' (../util), which 'lib' depends on")
                && result.stderr.contains("'util2' (../util2)"), "\(result.stderr)")
        #expect(fixture.lock == lockBefore)
        try Data(projectBefore.utf8).write(to: app.appendingPathComponent("flowpkg.json"))

        // A cycle, app -> lib -> util -> lib, is refused clearly.
        try fixture.write(
            fixture.projectFile("util", #""dependencies": {"lib": {"path": "../lib"}}"#), to: fixture.util,
            "flowpkg.json")
        result = try fixture.run(["lock"], in: app)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("[FP815]") && result.stderr.contains("app -> lib -> util -> lib"), "\(result.stderr)"
        )
        #expect(fixture.lock == lockBefore)
        #expect(fixture.read(app.appendingPathComponent("flowpkg.json")) == projectBefore)
    }

    @Test func aPackageBringsWhatItsManifestSaysItWasBuiltWith() throws {
        let fixture = try Fixture()
        defer { fixture.scratch.remove() }
        try fixture.makeProjects()
        // lib exported on its own: the package holds inspect and Util, and its manifest says so.
        var result = try fixture.run(["export", "-o", "../lib-0.1.0.luapkg"], in: fixture.lib)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")

        let app = fixture.app
        result = try fixture.run(["add", "--package", "../lib-0.1.0.luapkg"], in: app)
        #expect(result.status == 0, "\(result.stderr)")
        let lib = try #require(try fixture.lockEntry("lib"))
        #expect(lib["kind"] as? String == "package")
        #expect(lib["dependencies"] as? [String] == ["inspect == 3.1.1-1", "util == 0.1.0"])
        #expect(
            (lib["modules"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == [
                "Lib", "Lib.words", "Lib.wrap",
            ])
        for name in ["inspect", "util"] {
            let entry = try #require(try fixture.lockEntry(name), "\(name)")
            #expect(entry["kind"] as? String == "package" && entry["origin"] as? String == "../lib-0.1.0.luapkg")
            #expect(entry["requested"] == nil)
        }
        let fromFolder = try fixture.run(["run", "."], in: app)
        #expect(fromFolder.stdout == "<{ 1, 2 }>\n", "\(fromFolder.stderr)")
        result = try fixture.run(
            ["export", "--locked", "--offline", "-o", "../app.luapkg"], in: app, ["PATH": "/nonexistent"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try fixture.run(["run", "../app.luapkg"], in: app).stdout == fromFolder.stdout)
        let manifest = try LocalRocksServer.program(
            "/usr/bin/unzip", ["-p", "../app.luapkg", "manifest.json"], in: app)
        #expect(
            manifest.contains(#"{"name": "inspect", "kind": "package", "version": "3.1.1-1", "modules": ["inspect"]}"#))

        // The app asking for the very rock the package was built with keeps one copy: the rock's.
        result = try fixture.run(["add", "inspect", "~> 3.1"], in: app)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try fixture.lockEntry("inspect")?["kind"] as? String == "rock")
        #expect(try fixture.run(["run", "."], in: app).stdout == fromFolder.stdout)
    }

    /// `serve` serves every dependency module (a rock's through its readable copy, a path
    /// dependency's own): a package exported before any dependency was added runs them live.
    @Test func serveServesRocksAndADependencysOwnDependencies() throws {
        let fixture = try Fixture()
        defer { fixture.scratch.remove() }
        try fixture.makeProjects()
        let app = fixture.app
        try fixture.write("print('plain')\n", to: app, "Sources/Main.lua")
        var result = try fixture.run(["export", "-o", "../plain.luapkg"], in: app)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        try fixture.write("local Lib = require \"Lib\"\nprint(Lib.show({ 1, 2 }))\n", to: app, "Sources/Main.lua")
        result = try fixture.run(["add", "--path", "../lib"], in: app)
        #expect(result.status == 0, "\(result.stderr)")

        let serve = try BackgroundFlowpkg(
            ["serve", app.path, "--port", "0", "--token", ServedProject.token], in: fixture.scratch.url,
            environment: ["FLOWPKG_CACHE": fixture.cache.path])
        defer { serve.interrupt() }
        var url: String?
        serve.waitFor { stdout, _ in
            url = stdout.split(separator: "\n").first { $0.hasPrefix("Serving ") }
                .flatMap { $0.components(separatedBy: " at ").last }
            return url != nil
        }
        let served = try #require(url, "\(serve.stdout)\(serve.stderr)")
        let run = try BackgroundFlowpkg(
            ["run", "../plain.luapkg", "--live", served, "--token", ServedProject.token, "--watch"], in: app)
        defer { run.interrupt() }
        #expect(
            run.waitFor { stdout, _ in stdout.contains("<{ 1, 2 }>") },
            "stdout: \(run.stdout)\nstderr: \(run.stderr)\nserve: \(serve.stdout)\(serve.stderr)")
        #expect(!run.stdout.contains("plain"))
    }
}
