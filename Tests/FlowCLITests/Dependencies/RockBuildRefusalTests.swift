import FlowTestSupport
import Foundation
import Testing

/// A rock whose build runs a command, or that installs anything but Lua modules, is refused
/// before LuaRocks builds anything: by `export`, `lock`, and `export --locked` after a server
/// swapped a locked rock and the cache was deleted (issue 43, item 1). The rocks server is a
/// folder inside the repository, as a pull request could add one.
@Suite(.serialized) struct RockBuildRefusalTests {
    struct Project {
        let scratch: Scratch
        let app: URL
        let cache: URL
        let server: LocalRocksServer
        let marker: URL

        init() throws {
            scratch = try Scratch("cli")
            app = scratch.url.appendingPathComponent("app")
            cache = scratch.url.appendingPathComponent("cache")
            marker = scratch.url.appendingPathComponent("MARKER")
            try FileManager.default.createDirectory(
                at: app.appendingPathComponent("Sources"), withIntermediateDirectories: true)
            server = try LocalRocksServer(in: app)
            try Data(
                """
                {"name": "app", "identifier": "com.example.app", "version": "0.1.0", "startModule": "Main",
                 "sources": ["Sources"], "resources": [], "environment": "lua",
                 "rocksServers": ["rocks"], "dependencies": {"evil": ">= 1.0"}}

                """.utf8
            ).write(to: app.appendingPathComponent("flowpkg.json"))
            try Data("print(require('evil').word)\n".utf8).write(to: app.appendingPathComponent("Sources/Main.lua"))
        }

        func flowpkg(_ arguments: [String]) throws -> FlowpkgProcess.Result {
            try DependenciesEndToEndTests.flowpkg(arguments, in: app, cache: cache)
        }

        /// A rock whose build writes `id` into the marker, as a hostile rockspec would run anything.
        func publishCommandRock() throws {
            try server.publishSource(
                "evil", "1.0-1",
                build: """
                    { type = "command", build_command = "id > \(marker.path)",
                      install = { lua = { evil = "evil.lua" } } }
                    """,
                files: ["evil.lua": "return { word = 'evil' }\n"])
        }
    }

    @Test func exportRefusesABuildCommandBeforeItRuns() throws {
        let project = try Project()
        defer { project.scratch.remove() }
        try project.publishCommandRock()
        let output = project.scratch.url.appendingPathComponent("app.luapkg")
        for arguments in [["export", "-o", output.path], ["lock"]] {
            let result = try project.flowpkg(arguments)
            #expect(result.status == 1, "\(arguments) \(result.stdout)\(result.stderr)")
            let said = result.stdout + result.stderr
            #expect(
                said.contains("[FP817]") && said.contains("evil 1.0-1") && said.contains("'command'"), "\(said)")
            #expect(!FileManager.default.fileExists(atPath: project.marker.path), "\(arguments) ran the build command")
            #expect(!FileManager.default.fileExists(atPath: output.path))
        }
    }

    @Test func exportLockedRefusesASwappedRockWithTheCacheDeleted() throws {
        let project = try Project()
        defer { project.scratch.remove() }
        try project.server.publishSource(
            "evil", "1.0-1", build: #"{ type = "builtin", modules = { evil = "evil.lua" } }"#,
            files: ["evil.lua": "return { word = 'evil' }\n"])
        var result = try project.flowpkg(["lock"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        // A lock is committed: a folder server's rock is named, not this machine's path to it.
        let lock = try String(contentsOf: project.app.appendingPathComponent("flowpkg.lock"), encoding: .utf8)
        #expect(lock.contains("\"origin\" : \"evil-1.0-1.src.rock\""), "\(lock)")
        #expect(!lock.contains(project.scratch.url.path), "\(lock)")
        // The server now serves, at the locked version, a rock that builds with a command.
        try project.publishCommandRock()
        try FileManager.default.removeItem(at: project.cache)
        let output = project.scratch.url.appendingPathComponent("app.luapkg")
        result = try project.flowpkg(["export", "--locked", "-o", output.path])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect((result.stdout + result.stderr).contains("[FP817]"), "\(result.stdout)\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: project.marker.path), "export --locked ran the build command")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    /// Builds that install a script, a data file or a copied folder, and what each names.
    static let nonLuaBuilds = [
        (
            "build.install.bin",
            #"{ type = "builtin", modules = { evil = "evil.lua" }, install = { bin = { "tool" } } }"#
        ),
        (
            "build.copy_directories",
            #"{ type = "builtin", modules = { evil = "evil.lua" }, copy_directories = { "extra" } }"#
        ),
        ("build.install.lua", #"{ type = "none", install = { lua = { evil = "evil.lua", data = "data.txt" } } }"#),
    ]
    static let nonLuaFiles = [
        "evil.lua": "return { word = 'evil' }\n", "tool": "#!/bin/sh\nid\n", "extra/notes.txt": "notes\n",
        "data.txt": "data\n",
    ]

    /// Builtin builds that install a script, a configuration file or a copied folder: nothing
    /// runs, but none of it is a Lua module, so none of it is taken.
    @Test func aBuiltinRockInstallingNonLuaFilesIsRefused() throws {
        let project = try Project()
        defer { project.scratch.remove() }
        for (named, build) in Self.nonLuaBuilds {
            try project.server.publishSource("evil", "1.0-1", build: build, files: Self.nonLuaFiles)
            try? FileManager.default.removeItem(at: project.cache)
            let result = try project.flowpkg(["lock"])
            #expect(result.status == 1, "\(named): \(result.stdout)\(result.stderr)")
            let said = result.stdout + result.stderr
            #expect(said.contains("[FP817]") && said.contains(named), "\(named): \(said)")
            #expect(!FileManager.default.fileExists(atPath: project.app.appendingPathComponent("flowpkg.lock").path))
        }
    }
}
