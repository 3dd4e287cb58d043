import FlowLua
import Testing

@testable import LuaSyntax

/// Each check of Lua 5.4's compiler beyond the grammar, with a twin Lua accepts: the first of
/// each pair must never be `valid` (Lua rejects it, as the test checks), and the second must be
/// `valid` (so the screen does not send everything to Lua).
@Suite struct SyntaxVerdictTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var rule: String
        var rejected: String
        var accepted: String
        var testDescription: String { rule }
    }

    static func repeated(_ count: Int, _ make: (Int) -> String, separator: String) -> String {
        (1...count).map(make).joined(separator: separator)
    }

    static let cases: [Case] = [
        Case(rule: "goto without a label", rejected: "goto nowhere", accepted: "goto x ::x::"),
        Case(
            rule: "goto to a label in a closed block", rejected: "do goto x end do ::x:: end",
            accepted: "do goto x end ::x::"),
        Case(
            rule: "goto to a label of another function", rejected: "::x:: local function f() goto x end",
            accepted: "local function f() ::x:: goto x end"),
        Case(rule: "label defined twice", rejected: "::a:: ::a::", accepted: "::a:: do ::b:: end"),
        Case(
            rule: "label defined again in a nested block", rejected: "::a:: do ::a:: end",
            accepted: "do ::a:: end ::a::"),
        Case(
            rule: "label defined twice in one function only", rejected: "::a:: local function f() ::b:: ::b:: end",
            accepted: "::a:: local function f() ::a:: end"),
        Case(
            rule: "goto into the scope of a local", rejected: "goto x local y ::x:: print(y)",
            accepted: "goto x local y ::x::"),
        Case(
            rule: "goto into a local's scope before until", rejected: "repeat goto x local y ::x:: until y",
            accepted: "repeat goto x ::x:: local y until y"),
        Case(
            rule: "goto out of a nested block into a local's scope", rejected: "do goto x end local y ::x:: y = 1",
            accepted: "do goto x end local y ::x::"),
        Case(
            rule: "continue after a local",
            rejected: "for i = 1, 2 do goto continue local a = i ::continue:: print(a) end",
            accepted: "for i = 1, 2 do if i then goto continue end local a = i ::continue:: end"),
        Case(
            rule: "goto into a const's scope", rejected: "goto x local k <const> = 1 ::x:: print(k)",
            accepted: "local k <const> = 1 goto x ::x:: print(k)"),
        Case(rule: "backward goto", rejected: "do ::top:: end goto top", accepted: "::top:: do local a goto top end"),
        Case(
            rule: "break outside a loop", rejected: "if x then break end",
            accepted: "while x do if x then break end end"),
        Case(
            rule: "break in a function inside a loop", rejected: "for i = 1, 2 do local f = function() break end end",
            accepted: "local f = function() for i = 1, 2 do break end end"),
        Case(rule: "break in repeat", rejected: "repeat until x break", accepted: "repeat if x then break end until x"),
        Case(
            rule: "assignment to a const", rejected: "local x <const> = 1; x = 2",
            accepted: "local x <const> = 1; local y = x; y = 2"),
        Case(
            rule: "assignment to a shadowed const", rejected: "local x = 1 do local x <const> = 2; x = 3 end",
            accepted: "local x <const> = 1; do local x = 2; x = 3 end"),
        Case(
            rule: "assignment to a close variable", rejected: "local x <close> = nil; x = 1",
            accepted: "local x <close> = nil; local z; z = 1"),
        Case(
            rule: "assignment to a const upvalue", rejected: "local x <const> = {}; function f() x = 1 end",
            accepted: "local x <const> = {}; function f() x.y = 1 end"),
        Case(
            rule: "const among several targets", rejected: "local a <const> = 1; local b; b, a = 1, 2",
            accepted: "local a <const> = 1; local b; b, c = a, 2"),
        Case(
            rule: "function statement on a const", rejected: "local f <const> = nil; function f() end",
            accepted: "local t <const> = {}; function t.f() end function t:g() end"),
        Case(
            rule: "const declared after", rejected: "local x; local x <const> = 1; x = 2",
            accepted: "local x = 1; x = 2; local y <const> = x"),
        Case(rule: "unknown attribute", rejected: "local x <constant> = 1", accepted: "local x <const> = 1"),
        Case(
            rule: "two to-be-closed variables", rejected: "local a <close>, b <close> = nil, nil",
            accepted: "local a <close>, b = nil, nil"),
        Case(
            rule: "vararg outside a vararg function", rejected: "function f() return ... end",
            accepted: "function f(...) return ... end"),
        Case(rule: "invalid escape", rejected: #"s = "\q""#, accepted: #"s = "\n\z   \t""#),
        Case(rule: "short hexadecimal escape", rejected: #"s = "\x4""#, accepted: #"s = "\x41""#),
        Case(rule: "decimal escape too large", rejected: #"s = "\256""#, accepted: #"s = "\255\0""#),
        Case(rule: "UTF-8 escape too large", rejected: #"s = "\u{80000000}""#, accepted: #"s = "\u{7FFFFFFF}""#),
        Case(rule: "UTF-8 escape without braces", rejected: #"s = "\u48""#, accepted: #"s = "\u{48}""#),
        Case(rule: "UTF-8 escape without digits", rejected: #"s = "\u{}""#, accepted: #"s = "\u{0}""#),
        Case(rule: "unfinished string", rejected: "s = 'abc\n'", accepted: "s = 'abc\\\n'"),
        Case(rule: "unfinished long string", rejected: "s = [==[ abc ]=]", accepted: "s = [==[ abc ]=] ]==]"),
        Case(rule: "unfinished long comment", rejected: "--[[ comment", accepted: "--[= comment"),
        Case(rule: "invalid long string delimiter", rejected: "s = [=x", accepted: "s = [=[x]=]"),
        Case(rule: "numeral touching a letter", rejected: "n = 3x", accepted: "n = 3 x = 1"),
        Case(rule: "hexadecimal numeral without digits", rejected: "n = 0x", accepted: "n = 0x0"),
        Case(rule: "exponent without digits", rejected: "n = 1e+", accepted: "n = 1e+5"),
        Case(rule: "hexadecimal exponent without digits", rejected: "n = 0x1p", accepted: "n = 0x1p-2"),
        Case(rule: "two decimal points", rejected: "n = 3.4.5", accepted: "n = 3.4 .. 5"),
        Case(rule: "concatenation touching a numeral", rejected: "n = 1..2", accepted: "n = 1 .. 2"),
        Case(rule: "hexadecimal numeral read greedily", rejected: "n = 0x1.2.3", accepted: "n = 0x1e+1"),
        Case(rule: "decimal numeral read greedily", rejected: "n = 12af", accepted: "n = 0x12af"),
        Case(rule: "a stray character", rejected: "x = 1 $", accepted: "x = 1 -- $"),
        Case(
            rule: "200 locals in one function", rejected: "local " + repeated(201, { "a\($0)" }, separator: ","),
            accepted: "local " + repeated(150, { "a\($0)" }, separator: ",")),
        Case(
            rule: "locals of nested blocks count together",
            rejected: repeated(101, { "local a\($0)" }, separator: " ") + " do "
                + repeated(100, { "local b\($0)" }, separator: " ") + " end",
            accepted: repeated(100, { "local a\($0)" }, separator: " ") + " do "
                + repeated(50, { "local b\($0)" }, separator: " ") + " end"),
        Case(
            rule: "too many registers for a call", rejected: "f(" + repeated(260, { "\($0)" }, separator: ",") + ")",
            accepted: "f(" + repeated(100, { "\($0)" }, separator: ",") + ")"),
        Case(
            rule: "too many registers for a return", rejected: "return " + repeated(300, { "a\($0)" }, separator: ","),
            accepted: "return " + repeated(100, { "a\($0)" }, separator: ",")),
        Case(
            rule: "locals and registers together",
            rejected: "local " + repeated(150, { "a\($0)" }, separator: ",") + " f("
                + repeated(110, { "\($0)" }, separator: ",") + ")",
            accepted: "local " + repeated(100, { "a\($0)" }, separator: ",") + " f("
                + repeated(50, { "\($0)" }, separator: ",") + ")"),
        Case(
            rule: "too many upvalues",
            rejected: "local function outer() local " + repeated(150, { "a\($0)" }, separator: ",")
                + " return function() local " + repeated(150, { "b\($0)" }, separator: ",")
                + " return function() return " + repeated(150, { "a\($0)" }, separator: "+") + "+"
                + repeated(150, { "b\($0)" }, separator: "+") + " end end end",
            accepted: "local " + repeated(100, { "a\($0)" }, separator: ",") + " return function() return "
                + repeated(100, { "a\($0)" }, separator: "+") + " end"),
        Case(
            rule: "nesting past Lua's C levels",
            rejected: "x = " + String(repeating: "(", count: 210) + "1" + String(repeating: ")", count: 210),
            accepted: "x = " + String(repeating: "(", count: 100) + "1" + String(repeating: ")", count: 100)),
        Case(
            rule: "nested blocks past Lua's C levels",
            rejected: String(repeating: "do ", count: 210) + String(repeating: "end ", count: 210),
            accepted: String(repeating: "do ", count: 100) + String(repeating: "end ", count: 100)),
        Case(
            rule: "labels in a row count as C levels",
            rejected: repeated(210, { "::l\($0):: ;" }, separator: " "),
            accepted: repeated(100, { "::l\($0)::" }, separator: " ")),
        Case(
            rule: "assignment targets count as C levels",
            rejected: repeated(210, { "a\($0)" }, separator: ",") + " = 1",
            accepted: repeated(100, { "a\($0)" }, separator: ",") + " = 1"),
        Case(
            rule: "a for body too long to jump over",
            rejected: "for i = 1, 2 do " + String(repeating: "x = x + y * z - w ", count: 30_000) + "end",
            accepted: "for i = 1, 2 do " + String(repeating: "x = x + y * z - w ", count: 1_000) + "end"),
    ]

    @Test(arguments: cases)
    func screensWhatLuaRejects(_ pair: Case) throws {
        let checker = LuaChunkChecker()
        let rejected = Array(pair.rejected.utf8)
        let accepted = Array(pair.accepted.utf8)
        #expect(LuaVerdict.compiles(rejected, with: checker) == false, "Lua compiles the rejected twin")
        #expect(LuaVerdict.compiles(accepted, with: checker), "Lua rejects the accepted twin")
        #expect(!LuaParser.verdict(rejected).isValid, "flowpkg's parser is certain of what Lua rejects")
        #expect(LuaParser.verdict(accepted) == .valid, "the screen sends valid code to Lua")
    }

    @Test func aRejectedChunkSaysWhereTheParserStopped() {
        guard case .invalid(let error) = LuaParser.verdict(Array("local a = 1\nlocal b = = 2\n".utf8)) else {
            Issue.record("not rejected")
            return
        }
        #expect(error.line == 2)
        #expect(error.column == 11)
    }

    @Test func anUncertainChunkSaysWhy() {
        guard case .compilerDecides(let reason) = LuaParser.verdict(Array("break".utf8)) else {
            Issue.record("not sent to Lua")
            return
        }
        #expect(reason == "break outside a loop")
    }
}
