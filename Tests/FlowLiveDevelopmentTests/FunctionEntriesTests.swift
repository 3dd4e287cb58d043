import FlowRuntime
import Testing

@testable import FlowLiveDevelopment

/// Where a breakpoint on a function by name stops: the names definitions give, matched to the
/// first line of code of the function Lua compiled on that line.
@Suite struct FunctionEntriesTests {
    static let source = """
        local M = {}
        local function bump(n)
          return n + 1
        end
        function M.double(x)
          local result = x * 2
          return result
        end
        M.twice = function(x) return x * 2 end
        -- function commented(x)
        local same = M.double == M.twice
        function M:method()

          return self
        end
        return M
        """

    @Test func namesAndFirstLinesOfEachDefinition() throws {
        let bytes = Array(Self.source.utf8)
        let facts = try LuaState(openLibraries: false).lineFacts(ofChunk: bytes, chunkName: "m.lua")
        let entries = FunctionEntries.find(in: bytes, functions: facts.functions)
        #expect(
            entries == [
                .init(name: "bump", line: 3), .init(name: "M.double", line: 6), .init(name: "M.twice", line: 9),
                .init(name: "M:method", line: 14),
            ])
    }

    @Test func aNameMatchesTheWholeNameOrItsLastPart() {
        #expect(FunctionEntries.matches("M.double", "M.double"))
        #expect(FunctionEntries.matches("M.double", "double"))
        #expect(FunctionEntries.matches("M.double", "util.double"))
        #expect(FunctionEntries.matches("Account:deposit", "deposit"))
        #expect(!FunctionEntries.matches("M.double", "triple"))
    }

    @Test func comparisonsAndCommentsDefineNothing() {
        #expect(FunctionEntries.definedNames(in: "if f == function() end then") == [])
        #expect(FunctionEntries.definedNames(in: "  -- function f()") == [])
        #expect(FunctionEntries.definedNames(in: "local functional = 1") == [])
        #expect(FunctionEntries.definedNames(in: "t.f = function(a) return a end") == ["t.f"])
    }

    @Test func theReplCompletesAfterTheLastDotOrColon() {
        let cases: [(String, String?, String)] = [
            ("x = util.dou", "util", "dou"), ("s:up", "s", "up"), ("print(coun", nil, "coun"), ("a.b.", "a.b", ""),
        ]
        for (text, object, partial) in cases {
            let target = DebugEngine.completionTarget(text)
            #expect(target.object == object && target.partial == partial, "\(text)")
        }
    }
}
