import Testing

@testable import FlowAnalysis

/// Code a version test guards, as the facts walk sees it: Lua 5.1 names read there are not
/// global reads, a require there may not run, and the test for a version field reads ASCII
/// names in their bytes exactly as Unicode's lower case would.
@Suite struct VersionGuardFactsTests {
    func facts(_ source: String) throws -> ModuleFacts {
        try #require(ModuleAnalyzer.analyze(Array(source.utf8)))
    }

    @Test func versionFieldsAreFoundInAnyCaseAsUnicodeWould() {
        let names = [
            "is_LuaJIT", "JIT", "jiT", "Version", "VERSION_NUM", "lua51", "LUA5", "Lua54Compat", "versio", "ji",
            "lua", "luA4", "", "unpack", "pow", "jİt", "Ver\u{301}sion", "versión", "x_jit_y", "KELVIN\u{212A}",
        ]
        for name in names {
            let lowered = name.lowercased()
            let reference =
                FactsCollector.versionFields.contains(name) || lowered.contains("jit") || lowered.contains("lua5")
                || lowered.contains("version")
            #expect(FactsCollector.isVersionField(name) == reference, "\(name)")
        }
        #expect(FactsCollector.isVersionField("M.IS_LUAJIT".split(separator: ".").map(String.init)[1]))
        #expect(!FactsCollector.isVersionField("format"))
    }

    @Test func legacyNamesUnderAVersionTestAreNotReads() throws {
        let reads = try facts(
            """
            if compat.LuaJIT then setfenv(f, t) end
            local u = table.unpack or unpack
            local w = x.y or unpack
            print(setfenv)
            """
        ).globalReads.map(\.name)
        #expect(reads == ["compat", "f", "t", "table", "x", "unpack", "print", "setfenv"])
    }

    @Test func theRightOfAndOrMayNotRun() throws {
        let requires = try facts(
            """
            local a = cond and require "one" or require "two"
            local b = require "three"
            local c = (f() or g(function() return require "four" end)) and require "five"
            """
        ).requires
        #expect(requires.map(\.module) == ["one", "two", "three", "four", "five"])
        #expect(requires.map(\.isConditional) == [true, true, false, true, true])
        #expect(requires.map(\.isInsideFunction) == [false, false, false, true, false])
    }
}
