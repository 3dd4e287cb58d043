import FlowDiagnostics
import FlowProject
import FlowTestSupport
import Foundation
import Testing

/// Issue 47: each type check's fixture under Tests/Fixtures/invalid/<code>/ gives that code at
/// that place and nothing else; `---@diagnostic` and flowpkg's own comments silence them.
@Suite struct TypeRuleTests {
    static let expected: [(code: String, places: [String])] = [
        ("FP901", ["Sources/Main.lua:2:21"]),
        ("FP902", ["Sources/Main.lua:3:21"]),
        ("FP903", ["Sources/Main.lua:5:19"]),
        ("FP904", ["Sources/Main.lua:6:5"]),
        ("FP905", ["Sources/Main.lua:21:32"]),
        ("FP906", ["Sources/Main.lua:4:1"]),
        ("FP907", ["Sources/Main.lua:5:14"]),
        ("FP908", ["Sources/Main.lua:4:7"]),
        ("FP910", ["Sources/Main.lua:12:45"]),
    ]

    @Test(arguments: expected.map(\.code))
    func fixtureReportsItsCodeAtItsPlace(code: String) {
        let root = ProjectFixtures.url("invalid/\(code)")
        let report = Validator.validate(projectAt: root)
        let places = Self.expected.first { $0.code == code }!.places
        #expect(report.diagnostics.map(\.code.code) == [code], "\(report.diagnostics)")
        #expect(report.diagnostics.map { $0.place(relativeTo: root) } == places)
        #expect(!report.hasErrors)
        // --strict leaves the types' findings warnings.
        #expect(!Validator.validate(projectAt: root, options: ValidationOptions(strict: true)).hasErrors)
    }

    @Test func unknownFieldSuggestsTheClosestField() throws {
        let report = Validator.validate(projectAt: ProjectFixtures.url("invalid/FP905"))
        let finding = try #require(report.diagnostics.first)
        #expect(finding.message == "class 'Account' has no field 'balanse'")
        #expect(finding.hint == "did you mean 'balance'?")
    }

    private func project(_ main: String) throws -> URL {
        let root = try Scratch("types").url
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        try Data(
            #"{"name": "T", "identifier": "com.example.t", "version": "1.0.0", "startModule": "Main"}"#.utf8
        ).write(to: root.appendingPathComponent("flowpkg.json"))
        try Data(main.utf8).write(to: root.appendingPathComponent("Sources/Main.lua"))
        return root
    }

    @Test func diagnosticCommentsAndFlowpkgCommentsSilence() throws {
        let root = try project(
            """
            ---@param n number
            local function half(n) return n / 2 end
            ---@diagnostic disable-next-line: param-type-mismatch
            print(half("a"))
            print(half("b")) -- flowpkg: ignore FP902
            ---@diagnostic disable-next-line: deprecated
            print(half("c"))

            """)
        defer { try? FileManager.default.removeItem(at: root) }
        let report = Validator.validate(projectAt: root)
        #expect(report.diagnostics.map { $0.place(relativeTo: root) } == ["Sources/Main.lua:7:12"])
    }

    /// What is not certain is not reported: unknown types, open classes, coercions Lua makes,
    /// values that may change, optional parameters given nil, calls that expand.
    @Test func uncertainCodeGivesNoFinding() throws {
        let root = try project(
            """
            ---@class Base
            ---@field [string] any
            ---@class Open: Base
            ---@param o Open
            ---@param s string
            ---@param n? integer
            ---@return string, integer
            local function use(o, s, n)
              print(o.anything, string.rep(s, "3"))
              if s then return use(o, s, n) end
              return s, n or 1
            end
            local f = 1
            f = print
            f()
            print(use({}, 5, nil), use({}, "x", 2.0), string.format("%d", 1))
            ---@type string|integer
            local v = 3
            print(v, getResource("logo", "png"))

            """)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(Validator.validate(projectAt: root).diagnostics.filter { $0.code.number >= 900 } == [])
    }

    /// A recursive alias or class, and annotations that make no sense, end and do no harm.
    @Test func recursiveAndHostileAnnotationsTerminate() throws {
        let root = try project(
            """
            ---@alias Loop Loop|Loop[]
            ---@class A: B
            ---@class B: A
            ---@param x Loop
            ---@param y A
            local function g(x, y) return x, y.missing end
            ---@param
            ---@return
            ---@class
            ---@type ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((string
            ---@alias
            print(g(1, {}))

            """)
        defer { try? FileManager.default.removeItem(at: root) }
        let codes = Validator.validate(projectAt: root).diagnostics.map(\.code.code)
        #expect(codes.filter { $0 == "FP901" }.count == 5, "\(codes)")
        #expect(codes.allSatisfy { $0 == "FP901" || $0 == "FP905" })
    }

    /// Forms met in annotated code bases (gitsigns, lazy.nvim, lualine) that gave false findings.
    @Test func annotatedCodeBaseFormsGiveNoFinding() throws {
        let root = try project(
            """
            ---@class Keys
            ---@field [2]? string|fun():string?|false rhs
            ---@field package string
            ---@field pair [string, string?]
            ---@alias Props {[1]:string, [3]?:string}[]
            ---@class Config
            local M = {}
            ---@class Options
            M.defaults = { root = "/", spec = nil }
            ---@type Config
            local state = {}
            function state.read() return M end
            ---@param o Options
            ---@param k Keys
            ---@param f fun(...: T...): R...
            local function use(o, k, f)
              k.package = k.pair
              k.extra.deep = 1
              state.read()
              ---@cast o -?
              return o.spec, o.root, f
            end
            ---@param name string
            ---@param gui table
            local function highlight(name, gui) return name, gui end
            ---@class Lazy
            ---@field name string
            local Lazy = {}
            function Lazy:__index(key) return key end
            function Lazy:show() return self.computed end
            ---@type table<string, string>
            local mapping = nil
            print(use(M.defaults, {}, print), highlight("x", nil), mapping)

            """)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(Validator.validate(projectAt: root).diagnostics.filter { $0.code.number >= 900 } == [])
    }
}
