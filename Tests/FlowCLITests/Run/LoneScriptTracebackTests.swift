import FlowTestSupport
import Foundation
import Testing

/// `flowpkg run FILE.lua` reports a script's error as lua5.4 does, the traceback included: the
/// script's frames, then `[C]: in ?`, and none of flowpkg's driver (issue 46, bug 13: it showed
/// `flowpkg:lua:16: in local 'docall'` and the driver's main chunk). Each case runs under real
/// lua5.4 too, and the two stderr texts must be the same but for the program's name.
@Suite struct LoneScriptTracebackTests {
    /// Both runs' stderr, the program's name at the start made `lua`: `flowpkg run FILE.lua`, or
    /// `flowpkg OPTIONS FILE.lua` as a child of `arg[-1]` runs it, against `lua5.4 ARGUMENTS`.
    private static func stderrOfBoth(_ files: [String: String], running arguments: [String]) throws -> (
        flowpkg: String, lua: String
    ) {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        for (name, text) in files { try fixture.write(fixture.url.appendingPathComponent(name), text) }
        let options = arguments.first?.hasPrefix("-") == true
        let flowpkg = try FlowpkgProcess.run(options ? arguments : ["run"] + arguments, in: fixture.url)
        let lua = ProgramRun.run(ProgramRun.env, ["lua5.4"] + arguments, in: fixture.url, environment: [:])
        #expect(flowpkg.status == 1, "\(flowpkg.stderr)")
        #expect(lua.status == 1, "\(lua.stderr)")
        let program = #/^[^\n]+?: /#
        return (flowpkg.stderr.replacing(program, with: "lua: "), lua.stderr.replacing(program, with: "lua: "))
    }

    @Test func anErrorInNestedFunctionsShowsTheScriptsFramesThenC() throws {
        let script = """
            local function inner() error("boom") end
            local function outer() inner() end
            outer()

            """
        let (flowpkg, lua) = try Self.stderrOfBoth(["main.lua": script], running: ["main.lua"])
        #expect(flowpkg == lua)
        #expect(flowpkg.hasSuffix("main.lua:3: in main chunk\n\t[C]: in ?\n"), "\(flowpkg)")
        #expect(!flowpkg.contains("flowpkg:"), "\(flowpkg)")
    }

    @Test func anErrorInARequiredModuleGoesThroughRequire() throws {
        let files = [
            "main.lua": "local helper = require('helper')\nprint(helper)\n",
            "helper.lua": "local x = nil\nreturn x.field\n",
        ]
        let (flowpkg, lua) = try Self.stderrOfBoth(files, running: ["main.lua"])
        #expect(flowpkg == lua)
        #expect(flowpkg.contains("[C]: in function 'require'"), "\(flowpkg)")
    }

    @Test func errorObjectsAreShownAsLuaShowsThem() throws {
        let cases = [
            "error(setmetatable({}, { __tostring = function() return 'custom' end }))\n",
            "error(42)\n",
            "error({})\n",
            "local t = setmetatable({}, { __index = function() error('deep', 2) end })\nreturn t.x\n",
        ]
        for script in cases {
            let (flowpkg, lua) = try Self.stderrOfBoth(["main.lua": script], running: ["main.lua"])
            #expect(flowpkg == lua, "\(script)")
        }
    }

    @Test func commandLineChunksAndLibrariesToo() throws {
        let files = ["broken.lua": "error('at load')\n", "main.lua": "print('never')\n"]
        for arguments in [["-e", "error('from -e')", "main.lua"], ["-l", "broken", "main.lua"]] {
            let (flowpkg, lua) = try Self.stderrOfBoth(files, running: arguments)
            #expect(flowpkg == lua, "\(arguments)")
            #expect(!flowpkg.contains("flowpkg:"), "\(flowpkg)")
        }
    }
}
