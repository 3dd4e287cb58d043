import FlowTestSupport
import Foundation
import FlowLua
import Testing
@testable import LuaSyntax

/// The parser against the real Lua 5.4 compiler: every snippet here is checked by both.
@Suite struct LuaParserTests {
    static let validChunks: [String] = [
        "",
        "local a <const>, b <close> = 1, nil",
        "local x = 1 x = x // 2 x = x ~ 3 x = ~x x = x << 1 >> 2 & 7 | 8",
        "local t = {1, 2; 3, x = 1, ['y'] = 2, [3] = 4,}",
        "local s = [[\nline]] .. [==[ a ]] ]=] ]==] .. [=[]=]",
        "--[[ long\ncomment ]] --[==[ another ]] ]==] -- line\nlocal a",
        "local s = 'a\\z\n     b\\x41\\65\\u{48}\\u{7FFFFFFF}\\n\\t\\\\\\'\\\"\\a\\b\\f\\v\\r\\\n'",
        "local n = 0x1p4 + 0x.8P-1 + 1e10 + .5 + 3. + 0xA.8 + 1E+2 + 0xff + 9007199254740993",
        "for i = 1, 10, 2 do goto continue ::continue:: end",
        "for k, v in pairs({}) do break end",
        "while false do end repeat local x = 1 until x == 1",
        "if a then elseif b then else end",
        "local function f(a, b, ...) return ... end",
        "function a.b.c:d(...) return self, select('#', ...) end",
        "local o = {} o:m() o:m'x' o:m{} o.f'x'.g{}:h()",
        "f{} f'' f[[x]] f() (f)()",
        "local t = {} t[1], t.x = 1, 2",
        "return",
        "return;",
        "do return 1, 2 end",
        "local x = -2 ^ -3 ^ 2 .. 'a' .. 'b' < 'c' and not #t == 1 or nil",
        "local _ENV = {print = print} print(1)",
        "::top:: goto top",
        "local a = {f = function(...) local t = {...} end}",
        ";;; local a;",
        "local x <const> = 1; local y <close> = setmetatable({}, {__close = function() end})",
        "return function() end, function(...) return ... end",
        "a = 1; b = 2; (f)()",
    ]

    @Test(arguments: validChunks)
    func parsesWhatLuaCompiles(_ chunk: String) throws {
        try LuaState().check(chunk, chunkName: "chunk.lua")
        #expect(throws: Never.self) { try LuaParser.parse(Array(chunk.utf8)) }
    }

    /// Lua's file loader (`lua file.lua`, `require`) skips a byte order mark and a first line
    /// starting with '#'; `load` of a string does not, so these are checked with `luac5.4 -p`.
    @Test(arguments: ["#!/usr/bin/env lua\nprint(1)", "\u{FEFF}print(1)", "\u{FEFF}# comment\nreturn 1"])
    func skipsWhatLuaFileLoaderSkips(_ chunk: String) throws {
        let scratch = try Scratch("chunk")
        defer { scratch.remove() }
        let file = try scratch.file("chunk.lua", chunk)
        let luac = Process()
        luac.executableURL = URL(fileURLWithPath: "/usr/bin/luac5.4")
        luac.arguments = ["-p", file.path]
        try luac.run()
        luac.waitUntilExit()
        #expect(luac.terminationStatus == 0)
        let tree = try LuaParser.parse(Array(chunk.utf8))
        #expect(tree.statements(of: tree.root).count == 1)
    }

    static let invalidChunks: [String] = [
        "x = = 1",
        "local x <foo> = 1",
        "local s = 'unfinished",
        "local s = 'line\nbreak'",
        "local n = 3x",
        "local n = 0x",
        "local n = 1..2",
        "local n = 3e",
        "local s = [==[ unclosed ]=]",
        "--[[ unclosed comment",
        "f(",
        "(a) = 1",
        "x",
        "return 1 print(2)",
        "function f() return ... end",
        "local function () end",
        "local s = '\\q'",
        "local s = '\\x4'",
        "local s = '\\256'",
        "local s = '\\u{80000000}'",
        "a.b:c = 1",
        "local t = {1 2}",
        "if a then",
        "for i in do end",
        "local s = [= x",
        "a = 1 @",
        "local a <close>, b <close> = nil, nil",
        "x = 1 + ",
        "goto 1",
    ]

    @Test(arguments: invalidChunks)
    func rejectsWhatLuaRejects(_ chunk: String) throws {
        #expect(throws: (any Error).self) { try LuaState().check(chunk, chunkName: "chunk.lua") }
        #expect(throws: LuaSyntaxError.self) { try LuaParser.parse(Array(chunk.utf8)) }
    }

    @Test func deepNestingFailsWithoutOverflowingTheStack() throws {
        let deep = "x = " + String(repeating: "(", count: 100_000) + "1" + String(repeating: ")", count: 100_000)
        #expect(throws: LuaSyntaxError.self) { try LuaParser.parse(Array(deep.utf8)) }
        let blocks = String(repeating: "do ", count: 100_000) + String(repeating: "end ", count: 100_000)
        #expect(throws: LuaSyntaxError.self) { try LuaParser.parse(Array(blocks.utf8)) }
        let unary = "x = " + String(repeating: "- ", count: 100_000) + "1"
        #expect(throws: LuaSyntaxError.self) { try LuaParser.parse(Array(unary.utf8)) }
        let tables = "x = " + String(repeating: "{", count: 100_000)
        #expect(throws: LuaSyntaxError.self) { try LuaParser.parse(Array(tables.utf8)) }
    }

    @Test func nestingLuaAcceptsParses() throws {
        let chunk = "x = " + String(repeating: "(", count: 150) + "1" + String(repeating: ")", count: 150)
        try LuaState().check(chunk, chunkName: "chunk.lua")
        _ = try LuaParser.parse(Array(chunk.utf8))
    }

    @Test func errorsCarryLineAndColumn() {
        do {
            _ = try LuaParser.parse(Array("local a = 1\nlocal b = = 2\n".utf8))
            Issue.record("parsed")
        } catch {
            #expect(error.line == 2)
            #expect(error.column == 11)
            #expect(error.message == "unexpected symbol near '='")
        }
        do {
            _ = try LuaParser.parse(Array("if x then\n\n  y()\n".utf8))
            Issue.record("parsed")
        } catch {
            #expect(error.line == 4)
            #expect(error.message == "'end' expected (to close 'if' at line 1) near '<eof>'")
        }
    }

    /// The decoded value of the one string in `return <literal>`.
    func stringValue(_ literal: String) throws -> String {
        let tree = try LuaParser.parse(Array("return \(literal)".utf8))
        let statement = tree[tree.statements(of: tree.root).first!]
        #expect(statement.kind == .returnStatement)
        let value = tree.list(statement.a, statement.b).first!
        #expect(tree[value].kind == .string)
        return tree.text(of: value)
    }

    @Test func decodesEscapes() throws {
        #expect(try stringValue(#"'a\z   "# + "\n" + #"   b'"#) == "ab")
        #expect(try stringValue(#""\x41\66\u{48}\u{20AC}""#) == "ABH€")
        #expect(try stringValue(#""\n\t\\\"\'""#) == "\n\t\\\"'")
        #expect(try stringValue("'a\\\nb'") == "a\nb")
        #expect(try stringValue("'a\\\r\nb'") == "a\nb")
        #expect(try stringValue(#""\0651""#) == "A1")
    }

    @Test func decodesLongStrings() throws {
        #expect(try stringValue("[[\nfirst\nsecond]]") == "first\nsecond")
        #expect(try stringValue("[==[a]]b]=]c]==]") == "a]]b]=]c")
        #expect(try stringValue("[[\r\nx\r\ny]]") == "x\ny")
        #expect(try stringValue("[=[]=]") == "")
    }

    @Test func nodesCarryLinesAndByteColumns() throws {
        // Columns count bytes: 'é' is two, a tab is one.
        let source = "local s = 'é' x = 1\n\tfoo.bar(y)\r\nz = 2"
        let tree = try LuaParser.parse(Array(source.utf8))
        let statements = Array(tree.statements(of: tree.root))
        #expect(
            statements.map { tree[$0].location } == [
                SourceLocation(line: 1, column: 1), SourceLocation(line: 1, column: 16),
                SourceLocation(line: 2, column: 2), SourceLocation(line: 3, column: 1),
            ])
        let call = tree[statements[2]].a
        let argument = tree.arguments(of: call).first!
        #expect(tree[argument].location == SourceLocation(line: 2, column: 10))
        #expect(tree.lineCount == 3)
    }

    @Test func treeShapeOfCallsAndMethods() throws {
        let source = "local m = require('x')\nobj:method(1, 2)\n  print 'hi'\n"
        let tree = try LuaParser.parse(Array(source.utf8))
        let statements = Array(tree.statements(of: tree.root))
        let local = tree[statements[0]]
        #expect(local.kind == .local && local.b == 1 && local.c == 1)
        let call = tree.lists[Int(local.a + 1)]
        #expect(tree[call].kind == .call)
        #expect(tree.text(of: tree[call].a) == "require")
        #expect(tree.arguments(of: call).map { tree.text(of: $0) } == ["x"])
        #expect(tree[call].location == SourceLocation(line: 1, column: 11))

        let method = tree[statements[1]].a
        #expect(tree[method].kind == .methodCall)
        #expect(tree.text(of: tree.lists[Int(tree[method].b)]) == "method")
        #expect(tree.arguments(of: method).map { tree.numeral(of: $0) } == ["1", "2"])

        let print = tree[statements[2]]
        #expect(print.kind == .callStatement)
        #expect(tree[print.a].location == SourceLocation(line: 3, column: 3))
    }

    @Test func operatorsBindAsInLua() throws {
        // a + b * c ^ d ^ e .. f: '..' is lowest and right-associative, '^' right-associative.
        let tree = try LuaParser.parse(Array("return a + b * c ^ d ^ e .. f".utf8))
        let ret = tree[tree.statements(of: tree.root).first!]
        let top = tree[tree.list(ret.a, ret.b).first!]
        #expect(top.kind == .binary && top.op == BinaryOperator.concat.rawValue)
        let sum = tree[top.a]
        #expect(sum.op == BinaryOperator.add.rawValue)
        let product = tree[sum.b]
        #expect(product.op == BinaryOperator.multiply.rawValue)
        let power = tree[product.b]
        #expect(power.op == BinaryOperator.power.rawValue)
        #expect(tree[power.b].op == BinaryOperator.power.rawValue)  // d ^ e nests on the right
        let unary = try LuaParser.parse(Array("return -x ^ 2".utf8))
        let negate = unary[unary.list(unary[unary.statements(of: unary.root).first!].a, 1).first!]
        #expect(negate.kind == .unary)  // -(x ^ 2)
        #expect(unary[negate.a].kind == .binary)
    }

    @Test func attributesAndVarargFlags() throws {
        let tree = try LuaParser.parse(Array("local a <const>, b <close>, c = 1\nfunction o:m(x, ...) end".utf8))
        let statements = Array(tree.statements(of: tree.root))
        let names = tree.list(tree[statements[0]].a, tree[statements[0]].b).map { tree[$0].op }
        #expect(names == [1, 2, 0])
        let function = tree[tree[statements[1]].b]
        #expect(function.kind == .function && function.op == 3 && function.b == 1)
    }
}
