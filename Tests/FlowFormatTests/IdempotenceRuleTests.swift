import Testing

@testable import FlowFormat

/// The layouts a first formatting gives where StyLua's own rules would move something again on
/// a second one (its tables are measured by their width in the source, which the first pass
/// changes): each has its expected text, and formatting that text again leaves it as it is.
@Suite struct IdempotenceRuleTests {
    /// `source` formatted at `width` (two spaces), checked to be formatted already.
    static func formattedTwice(_ source: String, width: Int) throws -> String {
        let once = try StyLuaRuleTests.formatted(source, width: width)
        let twice = try StyLuaRuleTests.formatted(once, width: width)
        #expect(twice == once, "formatting again moved something:\n\(once)\n---\n\(twice)")
        return once
    }

    @Test func aFlatTableBeforeAnotherArgumentThatBreaksAnywayHugsTheParentheses() throws {
        let source = "return setmetatable({ func = func or default, state = \"ready\", queue = {} }, runner_mt)\n"
        let expected = """
            return setmetatable({
              func = func or default,
              state = "ready",
              queue = {},
            }, runner_mt)

            """
        #expect(try Self.formattedTwice(source, width: 40) == expected)
    }

    @Test func aLastTableIsMeasuredAsItIsPrintedNotOnlyByItsSourceWidth() throws {
        // 43 columns in the source, 50 once spaced: it breaks on a line of its own at 48.
        let source = "dns.query(server, {host=host.ip, port=port.number, tries=1})\n"
        let expected = """
            dns.query(server, {
              host = host.ip,
              port = port.number,
              tries = 1,
            })

            """
        #expect(try Self.formattedTwice(source, width: 48) == expected)
    }

    @Test func aFlatTableWhoseCallWouldBreakForTheCommaAfterItBreaksItself() throws {
        let source = """
            local t = {
              ["122"] = {format = prefix_if_indirect("setting read-only field"), fields = {}},
              ["131"] = {format = "unused", fields = {}},
            }

            """
        let expected = """
            local t = {
              ["122"] = {
                format = prefix_if_indirect("setting read-only field"),
                fields = {},
              },
              ["131"] = { format = "unused", fields = {} },
            }

            """
        #expect(try Self.formattedTwice(source, width: 80) == expected)
    }

    @Test func aRunWhoseTableBreaksIsMeasuredWithTheTableBroken() throws {
        let source = """
            if x then
              return ( r[1] and responses[r[1]] ) and { state = "ATTACK",
              details = {
                ("Type: %s"):format(responses[r[1]])
              }
            }
            end

            """
        let expected = """
            if x then
              return (r[1] and responses[r[1]])
                and {
                  state = "ATTACK",
                  details = {
                    ("Type: %s"):format(responses[r[1]]),
                  },
                }
            end

            """
        #expect(try Self.formattedTwice(source, width: 80) == expected)
    }

    @Test func aCommentAfterAnOperatorBreaksTheRunNotTheOperandAfterIt() throws {
        let source = "self.buf = pack(a, b) .. --dest\n  (self.exheader or \"\")..\n  (self.l4_packet or \"\")\n"
        let expected = """
            self.buf = pack(a, b) --dest
              .. (self.exheader or "")
              .. (self.l4_packet or "")

            """
        #expect(try Self.formattedTwice(source, width: 80) == expected)
    }

    @Test func aCommentBetweenTargetsFollowsTheCommaWithOneSpace() throws {
        let source = "a,\n-- one\nb, c = 1, 2, 3\n"
        #expect(try Self.formattedTwice(source, width: 80) == "a, -- one\nb, c = 1, 2, 3\n")
        #expect(try Self.formattedTwice("a, -- one\nb = 1, 2\n", width: 80) == "a, -- one\nb = 1, 2\n")
    }

    @Test func aStatementsTrailingCommentIsNotMeasuredWithItsValue() throws {
        let source = "local auth = fromhex(\"0000\") .. pass .. fromhex(\"0050\"); -- old authentication method\n"
        let expected = "local auth = fromhex(\"0000\") .. pass .. fromhex(\"0050\") -- old authentication method\n"
        #expect(try Self.formattedTwice(source, width: 60) == expected)
    }
}
