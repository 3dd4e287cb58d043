import Testing

@testable import FlowFormat

/// StyLua's layout with its default options, on small inputs written for these tests.
@Suite struct LayoutTests {
    static func formatted(_ source: String, _ options: FormatOptions = FormatOptions()) throws -> String {
        String(decoding: try LuaFormat.format(Array(source.utf8), options: options), as: UTF8.self)
    }

    @Test func spacingIndentationAndQuotes() throws {
        let source = "local  x=1\nif x==1 then print('one') elseif x then return else x=-x end\n"
        let expected = """
            local x = 1
            if x == 1 then
            \tprint("one")
            elseif x then
            \treturn
            else
            \tx = -x
            end

            """
        #expect(try Self.formatted(source) == expected)
    }

    @Test func blankLinesAtMostOneAndNoneAtBlockEdges() throws {
        let source = "local a = 1\n\n\n\nlocal b = 2\nfunction f()\n\n  return a\n\nend\n"
        #expect(try Self.formatted(source) == "local a = 1\n\nlocal b = 2\nfunction f()\n\treturn a\nend\n")
    }

    @Test func commentsStayWhereTheyAre() throws {
        let source = "-- head\nlocal t = {1, 2} -- trailing\n--[[ block ]] local y = t --[==[ inline ]==] + 1\n"
        let expected = "-- head\nlocal t = { 1, 2 } -- trailing\n--[[ block ]]\nlocal y = t --[==[ inline ]==] + 1\n"
        #expect(try Self.formatted(source) == expected)
    }

    @Test func callsGetParenthesesAndEmptyFunctionsStayOnTheLine() throws {
        let source = "require'a'\nf{1}\nlocal g = function() end\n"
        #expect(try Self.formatted(source) == "require(\"a\")\nf({ 1 })\nlocal g = function() end\n")
    }

    @Test func longCallsBreakOneArgumentALine() throws {
        var options = FormatOptions()
        options.columnWidth = 30
        let source = "call(alpha, beta, gamma, delta, epsilon)\n"
        #expect(try Self.formatted(source, options) == "call(\n\talpha,\n\tbeta,\n\tgamma,\n\tdelta,\n\tepsilon\n)\n")
    }

    @Test func tableBrokenInTheSourceStaysBrokenWithATrailingComma() throws {
        let source = "local t = {\n  a = 1, b = 2 }\nlocal u = { c = 3; d = 4, }\n"
        #expect(try Self.formatted(source) == "local t = {\n\ta = 1,\n\tb = 2,\n}\nlocal u = { c = 3, d = 4 }\n")
    }

    @Test func functionArgumentsHugTheCall() throws {
        let source = "describe('x', function()\nit('y', function() assert(true) end)\nend)\n"
        let expected = "describe(\"x\", function()\n\tit(\"y\", function()\n\t\tassert(true)\n\tend)\nend)\n"
        #expect(try Self.formatted(source) == expected)
    }

    @Test func longConditionsHangBetweenTheKeywords() throws {
        var options = FormatOptions()
        options.columnWidth = 30
        let source = "if alpha and beta or gamma and delta then x() end\n"
        let expected = "if\n\talpha and beta\n\tor gamma and delta\nthen\n\tx()\nend\n"
        #expect(try Self.formatted(source, options) == expected)
    }

    @Test func lua54Syntax() throws {
        let source =
            "#!/usr/bin/env lua\nlocal x <const>, y <close> = 7 // 2, nil\ngoto done\n::done::\nlocal s = [==[\n]]\n]==]\n"
        let expected =
            "#!/usr/bin/env lua\nlocal x <const>, y <close> = 7 // 2, nil\ngoto done\n::done::\nlocal s = [==[\n]]\n]==]\n"
        #expect(try Self.formatted(source) == expected)
    }

    @Test func semicolonsGoUnlessTheNextStatementStartsWithAParenthesis() throws {
        let source = "local a = f; (g)()\nb = 1;\n"
        #expect(try Self.formatted(source) == "local a = f;\n(g)()\nb = 1\n")
    }

    @Test func idempotentOnItsOwnOutput() throws {
        let source = "local t = {a=1,b={c=2,d={e=3}}} -- c\nfor i=1,10 do if i%2==0 then print(i) end end\n"
        let once = try Self.formatted(source)
        #expect(try Self.formatted(once) == once)
    }
}
