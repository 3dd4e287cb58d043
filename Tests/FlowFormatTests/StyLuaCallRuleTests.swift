import Testing

@testable import FlowFormat

/// StyLua's rules for values after `=`, calls and tables, on small inputs written for these tests.
@Suite struct StyLuaCallRuleTests {
    static func formatted(_ source: String, width: Int) throws -> String {
        try StyLuaRuleTests.formatted(source, width: width)
    }

    @Test func aValueWhoseFirstLineDoesNotFitHangsAtTheEqualsSign() throws {
        let source = "local fallback_config = extend(\"force\", copy(base), {\n  poll = true,\n})\n"
        let expected = """
            local fallback_config =
              extend("force", copy(base), {
                poll = true,
              })

            """
        #expect(try Self.formatted(source, width: 40) == expected)
    }

    @Test func aCallOnAParenthesizedBaseStaysOnTheEqualsLineAndKeepsItsParentheses() throws {
        let source = "local pat = (\"a long pattern string here\"):gsub(\"x\", \"y\")\n"
        let expected = "local pat = (\"a long pattern string here\"):gsub(\n  \"x\",\n  \"y\"\n)\n"
        #expect(try Self.formatted(source, width: 40) == expected)
    }

    @Test func aLoneTableArgumentIsMeasuredWithoutTheClosingParenthesis() throws {
        let source = "call({ alpha = 1, beta = 22 })\n"
        #expect(try Self.formatted(source, width: 29) == source)
        #expect(try Self.formatted(source, width: 28) == "call({\n  alpha = 1,\n  beta = 22,\n})\n")
    }

    @Test func aBlankLineAfterTheOpeningBraceOfABrokenTableIsKept() throws {
        let source = "local t = {\n\n  -- note\n  a = 1,\n}\n"
        #expect(try Self.formatted(source, width: 80) == source)
    }

    @Test func aMethodCallAfterACommentInAChainExpandsItsArguments() throws {
        let source = """
            local p = pattern
              :gsub("a", "b")
              -- why
              :gsub("c", "d")
              :gsub("e", "f")

            """
        let expected = """
            local p = pattern
              :gsub("a", "b")
              -- why
              :gsub(
                "c",
                "d"
              )
              :gsub("e", "f")

            """
        #expect(try Self.formatted(source, width: 80) == expected)
    }

    @Test func aTableKeptFlatByItsSourceWidthBreaksWhenItsContentsDoNotFit() throws {
        // `{` and `}` close together in the source, but the requoted, spaced contents are longer.
        let source = "f({a='x',b='y',c='z'})\n"
        let once = try Self.formatted(source, width: 24)
        #expect(once == "f({\n  a = \"x\",\n  b = \"y\",\n  c = \"z\",\n})\n")
        #expect(try Self.formatted(once, width: 24) == once)
    }
}
