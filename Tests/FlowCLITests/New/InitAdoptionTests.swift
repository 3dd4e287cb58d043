import FlowTestSupport
import Foundation
import Testing

/// `flowpkg init` in a folder that has Lua code adopts it: flowpkg.json only, made to fit the
/// code, every file kept, and validate passes straight after; run prints what lua5.4 prints.
@Suite struct InitAdoptionTests {
    func write(_ files: [String: String], in folder: URL) throws {
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }

    /// Runs init, then validate and run; returns init's output and the project file.
    func adopt(_ folder: URL, scratch: Scratch) throws -> (output: String, projectFile: String) {
        let before = scratch.tree
        let result = try FlowpkgProcess.run(["init"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let after = scratch.tree
        // Every file kept as it was; flowpkg.json is the only one added.
        for (path, data) in before { #expect(after[path] == data, "\(path)") }
        #expect(Set(after.keys).subtracting(before.keys).map { $0.hasSuffix("flowpkg.json") } == [true])
        let validated = try FlowpkgProcess.run(["validate"], in: folder)
        #expect(validated.status == 0, "\(validated.stdout)")
        let text = try String(contentsOf: folder.appendingPathComponent("flowpkg.json"), encoding: .utf8)
        return (result.stdout, text)
    }

    func stockLua(_ script: String, in folder: URL) throws -> String {
        try LocalRocksServer.program("/usr/bin/lua5.4", [script], in: folder)
    }

    @Test func topLevelMainWithALibFolder() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let folder = scratch.url.appendingPathComponent("tool")
        try write(
            [
                "main.lua": "local util = require \"lib.util\"\nprint(util.twice(21))\n",
                "lib/util.lua": "return { twice = function(n) return n * 2 end }\n",
                "README.md": "# tool\n",
            ], in: folder)
        let (output, projectFile) = try adopt(folder, scratch: scratch)
        #expect(projectFile.contains("\"sources\": [\".\"]"))
        #expect(projectFile.contains("\"startModule\": \"main\""))
        #expect(output.contains("sources: [\".\"] (1 of 1 requires resolve there)"), "\(output)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("Sources").path))
        let ran = try FlowpkgProcess.run(["run"], in: folder)
        #expect(ran.stdout == "42\n")
        #expect(try stockLua("main.lua", in: folder) == ran.stdout)
    }

    @Test func aSrcTreeWithARockspecAndALuacheckrc() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let folder = scratch.url.appendingPathComponent("mylib")
        try write(
            [
                "mylib-1.2.0-1.rockspec": """
                package = "mylib"
                version = "1.2.0-1"
                source = { url = "git://example.invalid/mylib" }
                dependencies = { "lua >= 5.1", "inspect >= 3.1" }
                build = {
                  type = "builtin",
                  modules = { ["mylib"] = "src/mylib/init.lua", ["mylib.util"] = "src/mylib/util.lua" },
                  install = { bin = { mylib = "src/mylib/cli.lua" } },
                }

                """,
                "src/mylib/init.lua": "local util = require \"mylib.util\"\nreturn { hello = util.hello }\n",
                "src/mylib/util.lua": "return { hello = function() return MYLIB_PREFIX or 'hi' end }\n",
                "src/mylib/cli.lua": "print(require('mylib').hello())\n",
                ".luacheckrc": "std = \"max\"\nglobals = { \"MYLIB_PREFIX\" }\n",
            ], in: folder)
        let (output, projectFile) = try adopt(folder, scratch: scratch)
        #expect(projectFile.contains("\"sources\": [\"src\"]"), "\(projectFile)")
        #expect(projectFile.contains("\"version\": \"1.2.0\""))
        #expect(projectFile.contains("\"startModule\": \"mylib.cli\""), "\(projectFile)")
        #expect(projectFile.contains("\"inspect\": \">= 3.1\""))
        #expect(projectFile.contains("\"globals\": [\"MYLIB_PREFIX\"]"))
        #expect(output.contains("the rockspec builds its modules from there"))
        #expect(output.contains("flowpkg lock"))
    }

    @Test func anExistingSourcesMain() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let folder = scratch.url.appendingPathComponent("app")
        try write(["Sources/main.lua": "print('hello from Sources/main.lua')\n"], in: folder)
        let (_, projectFile) = try adopt(folder, scratch: scratch)
        #expect(projectFile.contains("\"sources\": [\"Sources\"]"))
        #expect(projectFile.contains("\"startModule\": \"main\""))
        // Nothing of the template beside it: no Sources/Main.lua, no Banner.lua.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("Sources").path) == [
                "main.lua"
            ])
        let ran = try FlowpkgProcess.run(["run"], in: folder)
        #expect(ran.stdout == "hello from Sources/main.lua\n", "\(ran.stderr)")
    }

    /// Debian's lua-penlight tree, with a main.lua that uses it.
    @Test func debiansPenlightTreeWithAMain() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let folder = scratch.url.appendingPathComponent("pen")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: "/usr/share/lua/5.1/pl"), to: folder.appendingPathComponent("pl"))
        try write(
            [
                "main.lua": """
                local pretty = require "pl.pretty"
                local tablex = require "pl.tablex"
                local List = require "pl.List"
                print(pretty.write({ 1, 2, 3 }, ""))
                print(tablex.size({ a = 1, b = 2 }), List({ 3, 1, 2 }):sort():join(","))

                """
            ], in: folder)
        let (_, projectFile) = try adopt(folder, scratch: scratch)
        #expect(projectFile.contains("\"sources\": [\".\"]"))
        #expect(projectFile.contains("\"startModule\": \"main\""))
        let ran = try FlowpkgProcess.run(["run"], in: folder)
        #expect(ran.status == 0, "\(ran.stderr)")
        #expect(try stockLua("main.lua", in: folder) == ran.stdout)
        #expect(ran.stdout == "{1,2,3}\n2\t1,2,3\n")
    }

    @Test func twoCandidatesLeaveTheStartModuleUnsetAndSaySo() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let folder = scratch.url.appendingPathComponent("two")
        try write(["main.lua": "print(1)\n", "init.lua": "return {}\n"], in: folder)
        let result = try FlowpkgProcess.run(["init"], in: folder)
        #expect(result.status == 0)
        #expect(result.stdout.contains("startModule not set: main, init could each start it"), "\(result.stdout)")
        #expect(result.stdout.contains("--start-module"))
        let chosen = scratch.url.appendingPathComponent("chosen")
        try write(["main.lua": "print(1)\n", "init.lua": "return {}\n"], in: chosen)
        #expect(try FlowpkgProcess.run(["init", "--start-module", "main"], in: chosen).status == 0)
        #expect(
            try String(contentsOf: chosen.appendingPathComponent("flowpkg.json"), encoding: .utf8).contains(
                "\"startModule\": \"main\""))
    }
}
