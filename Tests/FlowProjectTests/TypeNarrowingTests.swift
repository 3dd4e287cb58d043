import FlowDiagnostics
import FlowProject
import FlowTestSupport
import Foundation
import Testing

/// Issue 47, "Inference without annotations": `if x then`, `type(x) == "…"` and early return
/// narrow a local's declared type, so a field read on what is certainly a class is checked there,
/// and nothing is reported where the type stays uncertain.
@Suite struct TypeNarrowingTests {
    /// The type findings (FP9xx) of a one-module project whose module is `main`, with their places.
    private func places(_ main: String) throws -> [String] {
        try TypeFindings.of(Self.classes + main, messages: false)
    }

    /// Lines 1-3 of every module.
    static let classes = """
        ---@class Point
        ---@field x number
        ---@field y number

        """

    @Test func optionalStringIsUsedAsAStringInsideIfAndOutside() throws {
        let inside = """
            ---@param s string|nil
            local function shout(s)
              if s then return s:upper() end
              return ""
            end
            return shout

            """
        #expect(try places(inside) == [])
        let outside = """
            ---@param s string|nil
            local function shout(s)
              return s:upper()
            end
            return shout

            """
        #expect(try places(outside) == [])
    }

    @Test func ifThenNarrowsAnOptionalClass() throws {
        let main = """
            ---@param p Point|nil
            local function f(p)
              print(p.z)
              if p then print(p.z) end
              if p ~= nil then print(p.z) end
              if not p then print(p.z) else print(p.z) end
              if p and p.x > 0 then print(p.z) end
              if p or true then print(p.z) end
              print(p.z)
            end
            return f

            """
        #expect(
            try places(main) == [
                "FP905 Sources/Main.lua:7:21", "FP905 Sources/Main.lua:8:28", "FP905 Sources/Main.lua:9:41",
                "FP905 Sources/Main.lua:10:33",
            ])
    }

    @Test func earlyReturnNarrowsTheRestOfTheBlock() throws {
        let main = """
            ---@param p Point?
            local function f(p)
              if not p then return end
              print(p.z)
            end
            ---@param p Point?
            local function g(p)
              if p == nil then error("no point") end
              print(p.z)
            end
            ---@param p Point?
            local function h(p)
              do
                if not p then return end
              end
              print(p.z)
              if not p then print("none") end
              print(p.z)
            end
            return { f = f, g = g, h = h }

            """
        #expect(try places(main) == ["FP905 Sources/Main.lua:7:11", "FP905 Sources/Main.lua:12:11"])
    }

    @Test func typeCallNarrowsBothBranches() throws {
        let main = """
            ---@param p string|Point
            local function f(p)
              if type(p) == "string" then print(p:upper()) else print(p.z) end
              if type(p) ~= "table" then print(p.z) else print(p.z) end
              if "table" == type(p) then print(p.z) end
              if type(p) == "string" then print(p.z) end
              print(p.z)
            end
            return f

            """
        #expect(
            try places(main) == [
                "FP905 Sources/Main.lua:6:61", "FP905 Sources/Main.lua:7:54", "FP905 Sources/Main.lua:8:38",
            ])
    }

    /// A local assigned anywhere is never narrowed; a condition on something else tells nothing.
    @Test func assignedOrUnknownStaysUnnarrowed() throws {
        let main = """
            ---@param p Point?
            local function f(p)
              if p then print(p.z) end
              p = nil
            end
            ---@param p Point?
            local function g(p, q)
              if q then print(p.z) end
              if type(q) == "table" then print(q.z) end
              local r = p
              if r then print(r.z) end
            end
            return { f = f, g = g }

            """
        #expect(try places(main) == [])
    }
}
