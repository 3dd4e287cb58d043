import FlowTestSupport
import Foundation
import Testing

/// `flowpkg run` as stock lua5.4 runs a script: arguments as `...`, `#!` lines, C modules from
/// the C path, errors naming files an editor can open; and a package's modules checked
/// against their SHA-256 when first loaded.
@Suite struct RunFidelityTests {
    @Test func aTamperedModuleIsRefusedWhenRequiredBeforeAnyOfItsCodeRuns() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        // `util = 1` corrupted is `Util = 1`, still Lua: only the SHA-256 keeps its print from running.
        let root = try fixture.project(
            "App",
            modules: [
                "main.lua": "print('before')\nrequire 'util'\nprint('after')\n",
                "util.lua": "util = 1\nprint('util ran')\nreturn 1\n",
            ])
        let package = try fixture.package(root, to: "App.luapkg")
        try fixture.corrupt(package, entry: "modules/util.lua")
        let result = try FlowpkgProcess.run(["run", "App.luapkg"], in: fixture.url)
        #expect(result.status == 1)
        #expect(result.stdout == "before\n")
        #expect(
            result.stderr.hasPrefix(
                "error: error loading module 'util': module 'util' in \(package.path) is refused: modules/util.lua: sha256 mismatch: the manifest lists "
            ), "\(result.stderr)")

        // --verify-all refuses the same package before the first line of Lua.
        let eager = try FlowpkgProcess.run(["run", "App.luapkg", "--verify-all"], in: fixture.url)
        #expect(eager.status == 1)
        #expect(eager.stdout == "")
        #expect(
            eager.stderr.hasPrefix("error: \(package.path): modules/util.lua: sha256 mismatch: the manifest lists "),
            "\(eager.stderr)")
    }

    @Test func aTamperedModuleNeverRequiredDoesNotStopTheProgram() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project(
            "App", modules: ["main.lua": "print('main ran')\n", "unused.lua": "unused = 1\nreturn 1\n"])
        let package = try fixture.package(root, to: "App.luapkg")
        try fixture.corrupt(package, entry: "modules/unused.lua")
        let result = try FlowpkgProcess.run(["run", "App.luapkg"], in: fixture.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "main ran\n")
        // verify still reports it.
        let verify = try FlowpkgProcess.run(["verify", "App.luapkg"], in: fixture.url)
        #expect(verify.status == 1)
        #expect(
            verify.stdout.contains("modules/unused.lua: sha256 mismatch")
                || verify.stderr.contains("modules/unused.lua: sha256 mismatch"))
    }

    @Test func unlistedMissingAndDuplicateEntriesAreRefusedAtOpen() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project("App", modules: ["main.lua": "print('lua ran')\n", "util.lua": "return 1\n"])
        let cases: [(String, (inout [(path: String, bytes: [UInt8])]) -> Void, String)] = [
            (
                "unlisted", { $0.append(("modules/extra.lua", Array("return 2\n".utf8))) },
                "modules/extra.lua: is in the archive but not listed in the manifest"
            ),
            (
                "missing", { $0.removeAll { $0.path == "modules/util.lua" } },
                "modules/util.lua: is listed in the manifest but missing from the archive"
            ),
            (
                "duplicate", { entries in entries.append(entries.first { $0.path == "modules/util.lua" }!) },
                "modules/util.lua: appears 2 times in the archive; a package holds each entry once"
            ),
        ]
        for (name, change, message) in cases {
            let package = try fixture.package(root, to: "\(name).luapkg")
            try PackageSurgery.rewrite(package, change)
            let result = try FlowpkgProcess.run(["run", "\(name).luapkg"], in: fixture.url)
            #expect(result.status == 1, "\(name)")
            #expect(result.stdout == "", "\(name)")
            #expect(result.stderr == "error: \(package.path): \(message)\n", "\(name)")
        }
    }

    @Test func theStartModuleReceivesTheArgumentsAsDots() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project(
            "App", modules: ["main.lua": "print(select('#', ...), ...)\nprint(arg[1] == (...))\n"])
        try fixture.package(root, to: "App.luapkg")
        for path in ["App", "App.luapkg"] {
            let result = try FlowpkgProcess.run(["run", path, "--", "a", "b c"], in: fixture.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "2\ta\tb c\ntrue\n", "\(path)")
        }
        let none = try FlowpkgProcess.run(["run", "App"], in: fixture.url)
        #expect(none.stdout == "0\ntrue\n")
    }

    @Test func aShebangLineRunsFromAFolderAndAPackage() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let main = "#!/usr/bin/env lua\nprint('shebang ok')\nerror('on line three')\n"
        try fixture.project("App", modules: ["main.lua": main])
        try PackageFixtures.write(fixture.url.appendingPathComponent("App.luapkg"), modules: ["main.lua": main])
        let folder = try FlowpkgProcess.run(["run", "App"], in: fixture.url)
        #expect(folder.stdout == "shebang ok\n")
        #expect(folder.stderr.hasPrefix("error: App/Sources/main.lua:3: on line three\n"), "\(folder.stderr)")
        let package = try FlowpkgProcess.run(["run", "App.luapkg"], in: fixture.url)
        #expect(package.stdout == "shebang ok\n")
        #expect(package.stderr.hasPrefix("error: App.luapkg/modules/main.lua:3: on line three\n"), "\(package.stderr)")
    }

    @Test func errorsNameTheFileAsValidateDoes() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        try fixture.project("App", modules: RunCommandTests.failing)
        let result = try FlowpkgProcess.run(["run", "App"], in: fixture.url)
        #expect(result.status == 1)
        #expect(result.stdout == "before\n")
        #expect(
            result.stderr == """
                error: App/Sources/util.lua:3: attempt to index a nil value (field 'field')
                stack traceback:
                \tApp/Sources/util.lua:3: in function 'util.explode'
                \tApp/Sources/main.lua:3: in main chunk

                """, "\(result.stderr)")
    }

    @Test func declaredCModulesLoadFromTheCPathButNeverInTheSandbox() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = fixture.url.appendingPathComponent("App")
        try fixture.write(
            root.appendingPathComponent("flowpkg.json"),
            """
            {"name": "Demo", "identifier": "com.example.app", "version": "1.0.0", "startModule": "main",
             "sources": ["Sources"], "externalModules": ["lfs"]}
            """)
        try fixture.write(
            root.appendingPathComponent("Sources/main.lua"),
            "local lfs = require 'lfs'\nprint(type(lfs.currentdir()), lfs.attributes('App', 'mode'))\n")
        try fixture.package(root, to: "App.luapkg")
        for path in ["App", "App.luapkg"] {
            let result = try FlowpkgProcess.run(["run", path], in: fixture.url)
            #expect(result.status == 0, "\(path): \(result.stderr)")
            #expect(result.stdout == "string\tdirectory\n", "\(path)")
            let boxed = try FlowpkgProcess.run(["run", path, "--sandbox"], in: fixture.url)
            #expect(boxed.status == 1)
            #expect(
                boxed.stderr.contains(
                    "C module 'lfs' is declared in externalModules, but C modules are not loaded in the sandbox"),
                "\(boxed.stderr)")
            // LUA_CPATH_5_4 wins over the default, as in stock Lua; ';;' adds the default back.
            let nowhere = try FlowpkgProcess.run(
                ["run", path], in: fixture.url, environment: ["LUA_CPATH_5_4": "/nowhere/?.so"])
            #expect(nowhere.status == 1)
            #expect(nowhere.stderr.contains("no file '/nowhere/lfs.so'"), "\(nowhere.stderr)")
            let extended = try FlowpkgProcess.run(
                ["run", path], in: fixture.url, environment: ["LUA_CPATH_5_4": "/nowhere/?.so;;"])
            #expect(extended.stdout == "string\tdirectory\n", "\(extended.stderr)")
        }
        // Not declared: never loaded from disk.
        try fixture.project("Undeclared", modules: ["main.lua": "require 'lfs'\n"])
        let undeclared = try FlowpkgProcess.run(["run", "Undeclared"], in: fixture.url)
        #expect(undeclared.status == 1)
        #expect(undeclared.stderr.contains("module 'lfs' not found"))
        #expect(!undeclared.stderr.contains("lfs.so"))
    }
}
