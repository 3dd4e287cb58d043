import FlowDiagnostics
import FlowPackage
import FlowTestSupport
import Foundation
import Testing
@testable import FlowAnalysis

/// Issue 34: each luacheck warning class flowpkg reports, planted in a snippet and found at the
/// line and column luacheck 1.1 (Debian's `lua-check`, installed by .ci/setup) itself gives, run
/// on the same snippet; and, for each, an idiom luacheck accepts that flowpkg accepts too.
@Suite struct LintClassTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var number: Int
        var planted: String
        var accepted: String
        var testDescription: String { "\(number)" }
    }

    static let cases: [Case] = [
        Case(number: 111, planted: "x = 1\n", accepted: "local x = 1\nreturn x\n"),
        Case(number: 112, planted: "foo.bar = 1\n", accepted: "local foo = {}\nfoo.bar = 1\nreturn foo\n"),
        Case(number: 121, planted: "string = 1\n", accepted: "local string = 1\nreturn string\n"),
        // A field set deep inside a global mutates it; on a library table, the path is the field.
        Case(number: 112, planted: "X.y.z = 3\n", accepted: "local X = {y = {}}\nX.y.z = 3\nreturn X\n"),
        Case(number: 142, planted: "table.foo.bar = 1\n", accepted: "local t = {foo = {}}\nt.foo.bar = 1\nreturn t\n"),
        Case(number: 122, planted: "string.format = nil\n", accepted: "package.path = './?.lua'\n"),
        Case(number: 142, planted: "table.unpack2 = 1\n", accepted: "table.sort({})\n"),
        Case(number: 143, planted: "return string.formt\n", accepted: "return string.format\n"),
        Case(number: 211, planted: "local unused = 42\n", accepted: "local _ = 42\n"),
        Case(
            number: 212, planted: "local function f(a, b) return a end\nreturn f\n",
            accepted: "local function f(a, _) return a end\nreturn f\n"),
        Case(number: 213, planted: "for i = 1, 3 do end\n", accepted: "for _ = 1, 3 do end\n"),
        Case(number: 221, planted: "local y\nreturn y\n", accepted: "local y = nil\nreturn y\n"),
        Case(number: 231, planted: "local d\nd = 5\n", accepted: "local d\nd = 5\nreturn d\n"),
        Case(
            number: 232, planted: "local function f(a) a = 1 end\nreturn f\n",
            accepted: "local function f(a) a = a or 1 return a end\nreturn f\n"),
        Case(number: 233, planted: "for i = 1, 2 do i = 3 end\n", accepted: "for i = 1, 2 do print(i) end\n"),
        Case(
            number: 241, planted: "local q = {}\nq[1] = 2\n",
            accepted: "local function f(t) t[1] = 2 end\nreturn f\n"),
        Case(number: 314, planted: "return {a = 1, a = 2}\n", accepted: "return {a = 1, b = 2, [\"c\"] = 3, 4}\n"),
        Case(
            number: 411, planted: "local e = 1\nlocal e = 2\nreturn e\n", accepted: "local e = 1\ne = e + 2\nreturn e\n"
        ),
        Case(
            number: 412, planted: "local function f(x) local x = 1 return x end\nreturn f\n",
            accepted: "local function f(x) x = x or 1 return x end\nreturn f\n"),
        Case(
            number: 413, planted: "for i = 1, 2 do local i = 3 print(i) end\n",
            accepted: "for i = 1, 2 do local j = i print(j) end\n"),
        Case(
            number: 421, planted: "local y = 1\ndo local y = 2 print(y) end\nreturn y\n",
            accepted: "local y = 1\ndo local z = 2 print(z) end\nreturn y\n"),
        Case(
            number: 422, planted: "local function f(a) do local a = 1 print(a) end return a end\nreturn f\n",
            accepted: "local function f(a) do local b = 1 print(b) end return a end\nreturn f\n"),
        Case(
            number: 423, planted: "for i = 1, 2 do do local i = 3 print(i) end print(i) end\n",
            accepted: "for i = 1, 2 do for _, v in ipairs({}) do print(i, v) end end\n"),
        Case(
            number: 431, planted: "local x = 1\nlocal function f() local x = 2 return x end\nreturn x, f\n",
            accepted: "local print = print\nreturn print\n"),
        Case(
            number: 432,
            planted: "local function f(a) return function() local a = 1 return a end end\nreturn f\n",
            accepted: "local function f(a) return function() return a end end\nreturn f\n"),
        Case(
            number: 433, planted: "for i = 1, 2 do local function f() local i = 3 return i end print(f, i) end\n",
            accepted: "for i = 1, 2 do local function f() return i end print(f) end\n"),
        Case(number: 511, planted: "do return end\nprint(1)\n", accepted: "if ... then return end\nprint(1)\n"),
        Case(
            number: 512, planted: "while true do break end\n",
            accepted: "while true do if ... then break end end\n"),
        Case(number: 521, planted: "::unused::\n", accepted: "goto done\n::done::\n"),
        Case(number: 531, planted: "local a = 1, 2\nreturn a\n", accepted: "local a, b = 1, 2\nreturn a, b\n"),
        Case(
            number: 532, planted: "local a, b\na, b = 1\nreturn a, b\n",
            accepted: "local a, b\na, b = (...)()\nreturn a, b\n"),
        Case(number: 541, planted: "do end\n", accepted: "do local x = 1 print(x) end\n"),
        Case(number: 542, planted: "if ... then end\n", accepted: "if ... then print(1) end\n"),
        Case(
            number: 571, planted: "local t = {}\nfor i = #t, 1 do print(i) end\n",
            accepted: "local t = {}\nfor i = #t, 1, -1 do print(i) end\n"),
        Case(
            number: 581, planted: "local a, b = 1, 2\nprint(not (a == b))\n",
            accepted: "local a, b = 1, 2\nprint(a ~= b)\n"),
        Case(
            number: 582, planted: "local a, b = 1, 2\nif not a == b then print(a) end\n",
            accepted: "local a, b = 1, 2\nif not (a == b) then print(a) end\n"),
        Case(number: 611, planted: "local a = 1\n  \nreturn a\n", accepted: "local a = 1\n\nreturn a\n"),
        Case(number: 612, planted: "local a = 1  \nreturn a\n", accepted: "local a = 1\nreturn a\n"),
        Case(number: 613, planted: "return [[a  \nb]]\n", accepted: "return [[a\nb]]\n"),
        Case(number: 614, planted: "-- a comment  \n", accepted: "-- a comment\n"),
        Case(number: 621, planted: " \tlocal a = 1\nreturn a\n", accepted: "\t local a = 1\nreturn a\n"),
        Case(
            number: 631, planted: "return '" + String(repeating: "x", count: 130) + "'\n",
            accepted: "return '" + String(repeating: "x", count: 100) + "'\n"),
    ]

    /// Where flowpkg reports the class in `source`, as "line:column".
    static func flowpkg(_ number: Int, _ source: String) throws -> [String] {
        let facts = try #require(ModuleAnalyzer.analyze(Array(source.utf8)))
        let module = ProjectRules.Module(name: try ModuleName("main"), file: "main.lua", facts: facts)
        let code = try #require(DiagnosticCodes.byLuacheckNumber[number])
        return LintRules.check(
            modules: [module], environment: .lua, readOnlyGlobals: Environment.lua.globals,
            options: { _ in LintOptions() }
        ).filter { $0.code == code }.map { "\($0.line ?? 0):\($0.column ?? 0)" }.sorted()
    }

    /// Where luacheck 1.1 reports the class in `source`, as "line:column".
    static func luacheck(_ number: Int, _ source: String) throws -> [String] {
        let folder = try Scratch("lint").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("main.lua")
        try Data(source.utf8).write(to: file)
        let output = try InstalledLuacheck.output([
            "--no-config", "--no-cache", "--std", "lua54", "--formatter", "plain", "--codes", file.path,
        ])
        return output.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: ":", maxSplits: 3)
            guard parts.count == 4, parts[3].contains("(W\(number))") else { return nil }
            return "\(parts[1]):\(parts[2])"
        }.sorted()
    }

    @Test(arguments: cases)
    func plantedItIsFoundWhereLuacheckFindsIt(_ test: Case) throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/luacheck"),
            "luacheck is not installed: run FLOWPKG_SETUP_TEST_TOOLS=1 bash .ci/setup")
        let expected = try Self.luacheck(test.number, test.planted)
        #expect(!expected.isEmpty, "luacheck does not report \(test.number) in the planted code")
        #expect(try Self.flowpkg(test.number, test.planted) == expected)
    }

    @Test(arguments: cases)
    func theIdiomLuacheckAcceptsIsAccepted(_ test: Case) throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/luacheck"))
        #expect(try Self.luacheck(test.number, test.accepted) == [])
        #expect(try Self.flowpkg(test.number, test.accepted) == [])
    }

    /// The module of issue 34 that luacheck found ten mistakes in: flowpkg finds them too.
    @Test func theIssuesModuleHasItsMistakesFound() throws {
        let source = """
            local Banner = require "Banner"
            local unused = 42
            local count = 0
            function increment() cuont = count + 1 end
            local function f(a, b) return a end
            for i = 1, 3 do for i = 1, 2 do print(i) end end
            print(string.formt("%d", 1), math.flor(1.5), Banner.fram)
            local cfg = configuraton or {}
            print(cfg, f, undefinedThing)

            """
        var found: [String] = []
        for number in [111, 143, 211, 212, 213, 423] {
            found += try Self.flowpkg(number, source).map { "\(number)@\($0)" }
        }
        #expect(
            found.sorted() == [
                "111@4:10", "111@4:22", "143@7:30", "143@7:7", "211@2:7", "212@5:21", "213@6:5", "423@6:21",
            ])
        let facts = try #require(ModuleAnalyzer.analyze(Array(source.utf8)))
        let undefined = ProjectRules.check(
            modules: [ProjectRules.Module(name: try ModuleName("main"), file: "main.lua", facts: facts)],
            moduleNames: [try ModuleName("main"), try ModuleName("Banner")], resources: [:], environment: .lua
        ).filter { $0.code == .undefinedGlobal }
        #expect(undefined.map { "\($0.line ?? 0):\($0.column ?? 0)" } == ["8:13", "9:15"])
    }
}
