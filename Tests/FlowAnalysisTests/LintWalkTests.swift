import FlowDiagnostics
import FlowPackage
import Foundation
import Testing
@testable import FlowAnalysis

/// Issue 44: the linter walks on LuaSyntax's one `SyntaxVisitor` and hands each node to the rules
/// that visit it. These snippets put the walk's own bookkeeping to the test where the order of a
/// statement's parts matters: a function among a loop's limits (its parameters are arguments,
/// the loop's names loop variables), a local's value that declares locals of its own, a
/// method's `self` at its `:`, operands tested by `and`/`or` and conditions. Each is held to
/// luacheck 1.1 run on the same snippet, class by class, place by place.
@Suite struct LintWalkTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var source: String
        /// The luacheck classes compared.
        var numbers: [Int]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "a function among a numeric loop's limits",
            source: "for i = 1, select('#', (function(a, b) return a end)(1)) do end\n", numbers: [212, 213]),
        Case(
            name: "a function among a generic loop's values",
            source: "for k, v in pairs((function(t, u) return t end)({})) do print(v) end\n",
            numbers: [212, 213]),
        Case(
            name: "a local's value declaring locals of its own",
            source: "local x, y = (function(x, z) local y = x return y end)(1)\nreturn x\n",
            numbers: [211, 212, 411, 421, 431]),
        Case(
            name: "a local function and its own name",
            source: "local function f(n) if n > 0 then return f(n - 1) end end\nlocal function g() end\n",
            numbers: [211, 212]),
        Case(
            name: "a method's self at its colon, the chunk never saying self",
            source: "local t = {}\nfunction t  :  m(a) return a end\nreturn t\n", numbers: [212]),
        Case(
            name: "a method's self at its colon, another method reading self",
            source: "local t = {}\nfunction t :m() end\nfunction t:n() return self end\nreturn t\n",
            numbers: [212]),
        Case(
            name: "a vararg and labels, function by function",
            source:
                "local function f(...) ::a:: goto b ::b:: return function(...) ::c:: return ... end end\nreturn f\n",
            numbers: [212, 521]),
        Case(
            name: "assignments set their targets, fields fill their tables",
            source: "local a, t, u = 1, {}, {}\na = 2\nt.x = 1\nu[a] = u\nreturn u\n",
            numbers: [231, 241, 311, 532]),
        Case(
            name: "checks inside nested expressions",
            source:
                "local a, b = ...\nprint(not (a == b), {x = 1, x = 2})\nif not a == b then print(b) end\n"
                + "for i = #a, 1 do print(i) end\n",
            numbers: [314, 571, 581, 582]),
    ]

    @Test(arguments: cases)
    func theWalkFindsWhatLuacheckFinds(_ test: Case) throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/luacheck"),
            "luacheck is not installed: run FLOWPKG_SETUP_TEST_TOOLS=1 bash .ci/setup")
        var total = 0
        for number in test.numbers {
            let expected = try LintClassTests.luacheck(number, test.source)
            total += expected.count
            #expect(try LintClassTests.flowpkg(number, test.source) == expected, "luacheck \(number)")
        }
        #expect(total > 0, "luacheck finds none of the classes: the case tests nothing")
    }

    /// A field of another Lua version is portable code where the code tests it: an `if` or
    /// `while` condition, either operand of `and`/`or` (the left one when it is the field
    /// itself); read anywhere else, it is a typo of Lua 5.4's library.
    @Test func libraryFieldsReadWhereTheCodeTestsThem() throws {
        let source = """
            local a = math.pow or 1
            local b = x and table.getn
            if math.log10 then end
            while table.maxn do break end
            local c = math.pow(2, 3)
            local d = (math.pow) or 1
            local e = not math.pow
            return a, b, c, d, e

            """
        let facts = try #require(ModuleAnalyzer.analyze(Array(source.utf8)))
        let reads = facts.lint.unknownFieldReads.map { "\($0.line):\($0.field):\($0.isGuarded)" }
        #expect(
            reads.sorted() == [
                "1:pow:true", "2:getn:true", "3:log10:true", "4:maxn:true", "5:pow:false", "6:pow:false",
                "7:pow:false",
            ])
    }
}
