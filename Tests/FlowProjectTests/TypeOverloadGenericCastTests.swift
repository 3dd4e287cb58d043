import FlowDiagnostics
import FlowProject
import FlowTestSupport
import Foundation
import Testing

/// Issue 47: `---@overload`, `---@generic` and `---@cast`, precision first. A call that fits an
/// overload is not reported; a generic function's parameters and returns that do not mention a
/// generic name are checked, those that do are unknown; a cast gives a local its type from there
/// to the end of its block.
@Suite struct TypeOverloadGenericCastTests {
    /// The type findings (FP9xx) of a one-module project whose module is `main`, with their places.
    private func places(_ main: String) throws -> [String] {
        try TypeFindings.of(main, messages: true)
    }

    @Test func aCallThatFitsAnOverloadIsNotReported() throws {
        let main = """
            local M = {}
            ---@param a string
            ---@overload fun(a: number)
            function M.f(a) end
            ---@class Box
            local Box = {}
            ---@param n integer
            ---@overload fun(self: Box, s: string)
            function Box:put(n) end
            M.f(1)
            M.f("x")
            M.f(true)
            Box:put("s")
            Box:put(2)
            Box:put(false)
            return M

            """
        #expect(
            try places(main) == [
                "FP902 Sources/Main.lua:12:5 argument 1 of 'f' is a boolean true, but parameter 'a' is string",
                "FP902 Sources/Main.lua:15:9 argument 1 of 'put' is a boolean false, but parameter 'n' is integer",
            ])
    }

    @Test func aGenericFunctionIsCheckedWhereNoGenericNameIsMentioned() throws {
        let main = """
            ---@generic T
            ---@param list T[]
            ---@param n integer
            ---@return T
            local function pick(list, n) return list[n], n end
            pick({}, "two")
            pick("anything", 1)
            return pick

            """
        #expect(
            try places(main) == [
                "FP903 Sources/Main.lua:5:46 returns 2 values, but ---@return declares 1",
                "FP902 Sources/Main.lua:6:10 argument 2 of 'pick' is a string \"two\", but parameter 'n' is integer",
            ])
    }

    @Test func aCastGivesTheLocalItsTypeToTheEndOfItsBlock() throws {
        let main = """
            ---@class Point
            ---@field x number

            ---@class Point3: Point
            ---@field z number

            ---@param p Point
            local function f(p)
              ---@cast p Point3
              return p.z
            end
            ---@param p Point|nil
            local function g(p)
              ---@cast p -?
              return p.w
            end
            ---@param r Point
            local function h(r, q)
              r = q
              ---@cast r Point3
              return r.w
            end
            return { f = f, g = g, h = h }

            """
        #expect(try places(main) == ["FP905 Sources/Main.lua:15:12 class 'Point' has no field 'w'"])
    }
}
