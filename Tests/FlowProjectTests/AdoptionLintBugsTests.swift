import FlowDiagnostics
import FlowProject
import FlowTestSupport
import Foundation
import Testing

/// Issue 46's lint bugs, each with its reproducer: what luacheck 1.1 says of the same code
/// (the fidelity tests' comparison) or what flowpkg must report.
@Suite struct AdoptionLintBugsTests {
    /// Bug 2: a Lua 5.1 global in a branch no version test guards is reported; one a version
    /// test guards is not.
    @Test func aLua51GlobalInAnyBranchIsReported() throws {
        let places = try RealCodeRulesTests.validate([
            "Sources/main.lua": """
            local t = { ... }
            if #t > 0 then print(unpack(t)) end
            while #t > 3 do t[#t] = nil; print(unpack(t)) end
            local ok = t and unpack(t)
            if _VERSION == "Lua 5.1" then print(unpack(t)) end
            if unpack then print(unpack(t)) end
            if table.unpack then print(table.unpack(t)) else print(unpack(t)) end
            local u = table.unpack or unpack
            return ok, u
            """
        ]).places.filter { $0.hasPrefix("FP405") }
        #expect(
            places == ["FP405@Sources/main.lua:2:22", "FP405@Sources/main.lua:3:36", "FP405@Sources/main.lua:4:18"])
    }

    /// Bug 4: `package.preload["x"] = f` and `package.loaded.x = v` are what docs/diagnostics.md
    /// recommends; luacheck is silent on them, and still reports a field `package` lacks.
    @Test func packageLoadedAndPreloadAreOpen() throws {
        let found = try LuacheckrcFidelityTests.both([
            "a.lua": """
            package.preload["x"] = print
            package.loaded.x = 1
            package.loaded["a.b"] = nil
            package.searchers[5] = print
            package.config.x = 1
            """
        ])
        #expect(found.flowpkg == ["a.lua:5:142"])
        #expect(found.flowpkg == found.luacheck)
    }

    /// Bug 8: an empty `elseif … then -- comment` branch is luacheck's 542, at its `then`.
    @Test func anEmptyBranchWithATrailingCommentIsReported() throws {
        let found = try LuacheckrcFidelityTests.both([
            "a.lua": """
            local x, y = ...
            if x then -- nothing yet
            elseif y then -- comment
            else -- "quoted" -- twice
            end
            """
        ])
        #expect(found.flowpkg == ["a.lua:2:542", "a.lua:3:542", "a.lua:4:542"])
        #expect(found.flowpkg == found.luacheck)
    }

    /// Bug 9: `unused_args = false` silences unused loop variables (213) too, not only arguments.
    @Test func unusedArgsFalseSilencesLoopVariables() throws {
        let found = try LuacheckrcFidelityTests.both([
            ".luacheckrc": "unused_args = false\n",
            "a.lua": "local function f(a) for i = 1, 2 do end for k, v in pairs({}) do end end\nreturn f\n",
        ])
        #expect(found.flowpkg.isEmpty, "\(found.flowpkg)")
        #expect(found.flowpkg == found.luacheck)
    }

    /// Bug 11: a module that does not compile hides only the globals it may define, not every
    /// word of its text (comments included).
    @Test func aSyntaxErrorHidesOnlyWhatItMayDefine() throws {
        let places = try RealCodeRulesTests.validate([
            "Sources/main.lua": "require 'broken'\nprint(file, helper, shared)\n",
            "Sources/broken.lua": "-- a file\nlocal x = = 1\nfunction helper() end\nshared = 1\n",
        ]).places.filter { $0.hasPrefix("FP405") }
        #expect(places == ["FP405@Sources/main.lua:2:7"])
    }
}
