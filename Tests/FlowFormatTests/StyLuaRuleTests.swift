import Testing

@testable import FlowFormat

/// StyLua's rules where lines break, each on a small input written for these tests, with two
/// spaces of indentation so the expected text reads as the output does.
@Suite struct StyLuaRuleTests {
    static func formatted(_ source: String, width: Int) throws -> String {
        var options = FormatOptions()
        options.columnWidth = width
        options.indentType = .spaces
        options.indentWidth = 2
        return try LayoutTests.formatted(source, options)
    }

    @Test func parenthesesThatBreakHangTheirRunAtTheOperandsIndentation() throws {
        let source =
            "local changed = kind == \"change\" and (removed > added or (next_hunk and next_hunk.kind == \"delete\"))\n"
        let expected = """
            local changed = kind == "change"
              and (
                removed > added
                or (next_hunk and next_hunk.kind == "delete")
              )

            """
        #expect(try Self.formatted(source, width: 50) == expected)
    }

    @Test func aConditionThatFitsOnItsOwnLineStaysFlatThereUnlessItHasThreeOperands() throws {
        let two = "if alpha >= 2 or (beta == 1 and gamma > 1) then x() end\n"
        #expect(
            try Self.formatted(two, width: 45)
                == "if\n  alpha >= 2 or (beta == 1 and gamma > 1)\nthen\n  x()\nend\n")
        let three = "if alpha >= 2 or beta == 1 or gamma > 12345 then x() end\n"
        #expect(
            try Self.formatted(three, width: 45)
                == "if\n  alpha >= 2\n  or beta == 1\n  or gamma > 12345\nthen\n  x()\nend\n")
    }

    @Test func returnValuesThatDoNotFitGoOneALineHungAfterTheFirst() throws {
        let source = "return first_value_here, second_value_here, third_one\n"
        #expect(
            try Self.formatted(source, width: 40) == "return first_value_here,\n  second_value_here,\n  third_one\n")
        let functions = "return function() end, function() end\n"
        #expect(try Self.formatted(functions, width: 20) == functions)
    }

    @Test func aRunHoldingABrokenTableHangsWhenThatShortensItsFirstLine() throws {
        let long = "local commit = commits[sha] or {\n  sha = sha,\n  short = sha:sub(1, 8),\n}\n"
        let hung = """
            local commit = commits[sha]
              or {
                sha = sha,
                short = sha:sub(1, 8),
              }

            """
        #expect(try Self.formatted(long, width: 40) == hung)
        // Counted with its line breaks, the whole fits: the operator stays on the line.
        let short = "local commit = commits[sha] or {\n  sha = sha,\n}\n"
        #expect(try Self.formatted(short, width: 80) == short)
    }

    @Test func forValuesGoOnALineOfTheirOwnWhenLongOrHoldingAComment() throws {
        let long = "for _, mark in ipairs(get_marks(buffer, namespace, 0)) do x() end\n"
        #expect(
            try Self.formatted(long, width: 45)
                == "for _, mark in\n  ipairs(get_marks(buffer, namespace, 0))\ndo\n  x()\nend\n")
        let comment = "for k in pairs(M --[[@as table]]) do x() end\n"
        #expect(try Self.formatted(comment, width: 80) == "for k in\n  pairs(M --[[@as table]])\ndo\n  x()\nend\n")
        let hugged = "for _, v in ipairs({ alpha, beta, gamma, delta }) do\n  x()\nend\n"
        #expect(
            try Self.formatted(hugged, width: 30)
                == "for _, v in ipairs({\n  alpha,\n  beta,\n  gamma,\n  delta,\n}) do\n  x()\nend\n")
    }

    @Test func commentsBeforeElseKeepTheirSourceLevel() throws {
        let outdented = "if a then\n  x()\n-- about b\nelseif b then\n  y()\nend\n"
        #expect(try Self.formatted(outdented, width: 80) == outdented)
        let indented = "if a then\n  x()\n  -- about x\nelse\n  y()\nend\n"
        #expect(try Self.formatted(indented, width: 80) == indented)
    }

    @Test func blankLinesStyLuaKeeps() throws {
        let repeatLoop = "repeat\n  x()\n\nuntil done\n"
        #expect(try Self.formatted(repeatLoop, width: 80) == repeatLoop)
        let commentsOnly = "\n---@alias Kind \"a\"|\"b\"\n"
        #expect(try Self.formatted(commentsOnly, width: 80) == commentsOnly)
    }

    @Test func commentsAfterTheEqualsSignHangTheValue() throws {
        let source = "local use =\n  -- why\n  not ready\n  -- or this\n  or count > 0\n"
        #expect(try Self.formatted(source, width: 80) == source)
        let sameLine = "local x = -- note\n  compute(1)\n"
        #expect(try Self.formatted(sameLine, width: 80) == sameLine)
    }

    @Test func functionsHugTheirParenthesesAndKeepACommentAfterTheirParameters() throws {
        let invoked = "local v = (function()\n  return 1\nend)()\n"
        #expect(try Self.formatted(invoked, width: 80) == invoked)
        let call = "f(a, \"b\", function(x) -- note\n  g(x)\nend)\n"
        #expect(try Self.formatted(call, width: 80) == call)
    }
}
