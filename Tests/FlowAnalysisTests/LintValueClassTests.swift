import FlowDiagnostics
import FlowPackage
import Foundation
import Testing

@testable import FlowAnalysis

/// Issue 34: luacheck's unused-hint (214), value (311–313, 321, 331, 341) and empty-statement
/// (551) classes, each planted in a snippet and found where luacheck 1.1 itself finds it, and
/// the idioms luacheck accepts accepted too: a value a closure may read, a counter a loop keeps,
/// a value set on one branch only.
@Suite struct LintValueClassTests {
    typealias Case = LintClassTests.Case

    static let cases: [Case] = [
        Case(
            number: 214, planted: "local function f(_a) return _a end\nreturn f\n",
            accepted: "local function f(_a, _) return 1 end\nreturn f\n"),
        Case(
            number: 311, planted: "local x = 1\nx = 2\nreturn x\n",
            accepted: "local x = 1\nif ... then x = 2 end\nreturn x\n"),
        Case(
            number: 312, planted: "local function f(a) a = 1 return a end\nreturn f\n",
            accepted: "local function f(a) a = a or 1 return a end\nreturn f\n"),
        Case(
            number: 313, planted: "for i = 1, 2 do i = 3 print(i) end\n",
            accepted: "for i = 1, 2 do print(i) i = 3 print(i) end\n"),
        Case(
            number: 321, planted: "local x\nprint(x)\nx = 1\nreturn x\n",
            accepted: "local x\nif ... then x = 1 end\nprint(x)\n"),
        Case(
            number: 331, planted: "local t = {}\nt.x = 1\nt = {}\nreturn t\n",
            accepted: "local t = {}\nt.x = 1\nprint(t)\nt = {}\nreturn t\n"),
        Case(
            number: 341, planted: "local t\nt.x = 1\nt = {}\nreturn t\n",
            accepted: "local t\nif ... then t = {} end\nt.x = 1\nreturn t\n"),
        Case(number: 551, planted: "local a = 1;;\nreturn a\n", accepted: "local a = 1;\nreturn a;\n"),
    ]

    @Test(arguments: cases)
    func plantedItIsFoundWhereLuacheckFindsIt(_ test: Case) throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/luacheck"),
            "luacheck is not installed: run FLOWPKG_SETUP_TEST_TOOLS=1 bash .ci/setup")
        let expected = try LintClassTests.luacheck(test.number, test.planted)
        #expect(!expected.isEmpty, "luacheck does not report \(test.number) in the planted code")
        #expect(try LintClassTests.flowpkg(test.number, test.planted) == expected)
    }

    @Test(arguments: cases)
    func theIdiomLuacheckAcceptsIsAccepted(_ test: Case) throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/luacheck"))
        #expect(try LintClassTests.luacheck(test.number, test.accepted) == [])
        #expect(try LintClassTests.flowpkg(test.number, test.accepted) == [])
    }

    /// Idioms where a value is used in a way only the flow shows: luacheck reports none of
    /// 311–341 in them, and flowpkg neither.
    static let idioms: [String] = [
        // A closure made before the second assignment may read it later.
        "local x = 1\nlocal function f() return x end\nx = 2\nreturn f\n",
        // A counter kept across a loop's rounds.
        "local n = 0\nfor _ in pairs({}) do n = n + 1 end\nreturn n\n",
        // A value a later round reads, through a `goto continue`.
        "local last\nfor _, v in ipairs({}) do\n  if v then goto continue end\n  print(last)\n  last = v\n  ::continue::\nend\n",
        // A loop left by break, the value read after it.
        "local found = false\nfor _, v in ipairs({...}) do\n  if v then\n    found = true\n    break\n  end\nend\nreturn found\n",
        // A repeat loop whose condition reads the body's value.
        "local done\nrepeat done = (...)() until done\n",
        // Set on every branch, read after.
        "local kind\nif ... then kind = 'a' elseif ... then kind = 'b' else kind = 'c' end\nreturn kind\n",
        // A forward declaration for a recursive pair.
        "local g\nlocal function f() return g() end\nfunction g() return f() end\nreturn f\n",
        // A local a closure sets and the chunk reads.
        "local ready = false\nlocal function go() ready = true end\ngo()\nreturn ready\n",
    ]

    @Test(arguments: idioms)
    func idiomsWhereTheFlowUsesTheValueAreAccepted(_ source: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/luacheck"))
        for number in [311, 312, 313, 321, 331, 341] {
            #expect(try LintClassTests.luacheck(number, source) == [], "luacheck \(number)")
            #expect(try LintClassTests.flowpkg(number, source) == [], "flowpkg \(number)")
        }
    }

    /// A value a closure sets that no read can follow: where luacheck reports it, flowpkg does.
    @Test func aValueAClosureSetsThatNothingReadsIsFound() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/luacheck"))
        let source =
            "local function b()\n  local m = 0\n  print(m)\n  local function set() m = 5 end\n  return set\nend\nreturn b\n"
        #expect(try LintClassTests.luacheck(311, source) == ["4:24"])
        #expect(try LintClassTests.flowpkg(311, source) == ["4:24"])
    }

    /// The wording says where the value is overwritten, as luacheck's does.
    @Test func theMessageNamesTheLineThatOverwritesTheValue() throws {
        let facts = try #require(ModuleAnalyzer.analyze(Array("local x = 1\nx = 2\nreturn x\n".utf8)))
        let module = ProjectRules.Module(name: try ModuleName("main"), file: "main.lua", facts: facts)
        let found = LintRules.check(
            modules: [module], environment: .lua, readOnlyGlobals: Environment.lua.globals,
            options: { _ in LintOptions() }
        ).filter { $0.code == .unusedValue }
        #expect(found.map(\.message) == ["value assigned to variable 'x' is overwritten on line 2 before use"])
    }
}
