import FlowTestSupport
import Foundation
import Testing

@Suite struct RunCommandTests {
    static let failing = [
        "main.lua": "print('before')\nlocal util = require 'util'\nutil.explode({})\n",
        "util.lua": "local M = {}\nfunction M.explode(t)\n  return t.field.missing\nend\nreturn M\n",
    ]

    @Test func runsTheStartModuleOfAFolderAndOfItsPackage() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project(
            "App",
            modules: [
                "main.lua": "local u = require 'util'\nprint('hello', u.twice(21), getResource('greeting', 'txt'))\n",
                "util.lua": "return { twice = function(x) return 2 * x end }\n",
            ],
            resources: ["greeting.txt": "hi"])
        try fixture.package(root, to: "App.luapkg")
        for path in ["App", "App.luapkg"] {
            let result = try FlowpkgProcess.run(["run", path, "--identifier", "com.example.app"], in: fixture.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "hello\t42\thi\n")
            #expect(result.stderr == "")
        }
    }

    @Test func aLuaErrorExitsOneWithMessageAndTraceback() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        try fixture.package(try fixture.project("App", modules: Self.failing), to: "App.luapkg")
        let result = try FlowpkgProcess.run(["run", "App.luapkg"], in: fixture.url)
        #expect(result.status == 1)
        #expect(result.stdout == "before\n")
        try TemplateGolden.check("run-lua-error", fixture.transcript(result))
    }

    @Test func traceNamesTheSourceOfEveryItem() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        try fixture.package(
            try fixture.project(
                "App", modules: ["main.lua": "require 'util'\ngetResource('logo', 'svg')\n", "util.lua": "return 1\n"],
                resources: ["logo.svg": "<svg/>"]), to: "App.luapkg")
        let result = try FlowpkgProcess.run(["run", "App.luapkg", "--trace"], in: fixture.url)
        #expect(result.status == 0)
        try TemplateGolden.check("run-trace", fixture.transcript(result))
    }

    @Test func refusedBeforeAnyLuaRuns() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project("App", modules: ["main.lua": "print('lua ran')\n", "util.lua": "return 1\n"])
        let package = try fixture.package(root, to: "App.luapkg")
        try fixture.project("NoStart", start: nil, modules: ["main.lua": "print('lua ran')\n"])

        var transcripts: [String] = []
        for arguments in [
            ["run", "App.luapkg", "--identifier", "com.other.app"],
            ["run", "App", "--identifier", "com.other.app"],
            ["run", "Missing.luapkg"],
            ["run", "NoStart"],
            ["run", ".", "--identifier", "com.example.none"],
        ] {
            let result = try FlowpkgProcess.run(arguments, in: fixture.url)
            #expect(result.status == 1, "\(arguments)")
            #expect(!result.stdout.contains("lua ran"), "\(arguments)")
            transcripts.append("$ flowpkg " + arguments.joined(separator: " ") + "\n" + fixture.transcript(result))
        }

        // A module whose bytes no longer match the manifest, with --verify-all: refused, nothing
        // printed (without it, only a require of that module is refused: RunFidelityTests).
        try fixture.corrupt(package, entry: "modules/util.lua")
        let result = try FlowpkgProcess.run(["run", "App.luapkg", "--verify-all"], in: fixture.url)
        #expect(result.status == 1)
        #expect(result.stdout == "")
        transcripts.append("$ flowpkg run App.luapkg --verify-all (util.lua corrupted)\n" + fixture.transcript(result))
        try TemplateGolden.check("run-refused", transcripts.joined(separator: "\n"))
    }

    @Test func picksAPackageByIdentifierFromAFolder() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        try fixture.package(
            try fixture.project("A", identifier: "com.example.a", modules: ["main.lua": "print('A')\n"]), to: "A.luapkg"
        )
        try fixture.package(
            try fixture.project("B", identifier: "com.example.b", modules: ["main.lua": "print('B')\n"]), to: "B.luapkg"
        )
        let result = try FlowpkgProcess.run(["run", ".", "--identifier", "com.example.b"], in: fixture.url)
        #expect(result.status == 0)
        #expect(result.stdout == "B\n")
        let unnamed = try FlowpkgProcess.run(["run", "."], in: fixture.url)
        #expect(unnamed.status == 1)
        #expect(
            unnamed.stderr.hasSuffix(
                "holds packages but no flowpkg.json; pass --identifier ID to run the package with that identifier\n"))
    }

    @Test func sandboxRemovesTheOutsideWorld() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        try fixture.project(
            "App",
            modules: ["main.lua": "print(type(io), type(os.execute), type(os.time), type(debug), type(string))\n"])
        let open = try FlowpkgProcess.run(["run", "App"], in: fixture.url)
        #expect(open.stdout == "table\tfunction\tfunction\ttable\ttable\n")
        let boxed = try FlowpkgProcess.run(["run", "App", "--sandbox"], in: fixture.url)
        #expect(boxed.stdout == "nil\tnil\tfunction\tnil\ttable\n")
    }

    @Test func argumentsAfterTheTerminatorReachLuaAsArg() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project("App", modules: ["main.lua": "print(#arg, arg[0], arg[1], arg[2], arg[3])\n"])
        try fixture.package(root, to: "App.luapkg")
        let result = try FlowpkgProcess.run(["run", "App.luapkg", "--", "--trace", "two words"], in: fixture.url)
        #expect(result.status == 0, "\(result.stderr)")
        // arg[0] is the start module's file, as lua5.4 names the script it runs.
        #expect(result.stdout == "2\tApp.luapkg/modules/main.lua\t--trace\ttwo words\tnil\n")
        let none = try FlowpkgProcess.run(["run", "App", "--sandbox"], in: fixture.url)
        #expect(none.stdout == "0\tApp/Sources/main.lua\tnil\tnil\tnil\n", "\(none.stderr)")
    }

    @Test func usageErrors() throws {
        let result = try FlowpkgProcess.run(["run", "x", "--identifier", "not an id"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("not a valid package identifier"))
        let help = try FlowpkgProcess.run(["run", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: flowpkg run"))
    }
}
