import FlowLua
import Testing
@testable import FlowAnalysis
@testable import LuaSyntax

/// What `ModuleAnalyzer` learns of a chunk: scopes, `_ENV`, requires, resources, literals.
@Suite struct AnalysisFactsTests {
    func facts(_ source: String) throws -> ModuleFacts {
        try #require(ModuleAnalyzer.analyze(Array(source.utf8)))
    }

    func reads(_ source: String) throws -> [String] {
        try facts(source).globalReads.map(\.name)
    }

    @Test func invalidLuaHasNoFacts() {
        #expect(ModuleAnalyzer.analyze(Array("local = 1".utf8)) == nil)
    }

    @Test func localsHideGlobals() throws {
        #expect(try reads("local x = 1 print(x, y)") == ["print", "y"])
        #expect(try reads("local function f(a, ...) return a, b, f end") == ["b"])
        #expect(try reads("for i = 1, n do print(i) end print(i)") == ["n", "print", "print", "i"])
        #expect(try reads("for k, v in pairs(t) do use(k, v) end") == ["pairs", "t", "use"])
        #expect(try reads("do local x end return x") == ["x"])
    }

    @Test func aLocalIsInScopeAfterItsStatement() throws {
        // `local x = x` reads the outer x; `local f = function() f() end` calls a global f,
        // `local function g() g() end` calls itself.
        #expect(try reads("local x = x") == ["x"])
        #expect(try reads("local f = function() return f end") == ["f"])
        #expect(try reads("local function g() return g end") == [])
    }

    @Test func repeatConditionSeesTheBodysLocals() throws {
        #expect(try reads("repeat local done = true until done") == [])
    }

    @Test func methodsHaveSelf() throws {
        #expect(try reads("local o = {} function o:m() return self end") == [])
        #expect(try reads("local o = {} function o.m() return self end") == ["self"])
    }

    @Test func globalWrites() throws {
        let found = try facts(
            """
            x = 1
            local y; y = 2
            function f() end
            function t.field() end
            local function g() end
            a, b.c, d[1] = 1, 2, 3
            """)
        #expect(found.globalWrites == ["x", "f", "a"])
        // `t.field`, `b.c` and `d[1]` as targets mutate those globals (luacheck's 112): no read.
        #expect(found.globalReads.map(\.name) == [])
    }

    /// A free name under a local `_ENV` is that table's field, but luacheck's 113 (FP405) still
    /// counts its read a global's (issue 34); it sets no global another module could read.
    @Test func localEnvironmentKeepsFreeNamesGlobalReads() throws {
        let found = try facts(
            """
            local print = print
            local _ENV = {}
            x = 1
            return y
            """)
        #expect(found.globalReads.map(\.name) == ["print", "y"])
        #expect(found.globalWrites.isEmpty)
        let parameter = try facts("local function f(_ENV) return z end return w")
        #expect(parameter.globalReads.map(\.name) == ["z", "w"])
        #expect(try reads("return _ENV.x") == [])
    }

    @Test func requireForms() throws {
        let found = try facts(
            """
            require "a"
            require("b")
            require 'c'
            local m = require("d")
            local n = require(name)
            local function later() return require "e" end
            local ok, f = pcall(require, "f")
            local ok2, g = xpcall(require, debug.traceback, "g")
            """)
        #expect(found.requires.map(\.module) == ["a", "b", "c", "d", "e", "f", "g"])
        #expect(found.requires.map(\.isInsideFunction) == [false, false, false, false, true, false, false])
        #expect(found.requires.map(\.isProtected) == [false, false, false, false, false, true, true])
        #expect(found.requires[0].location == SourceLocation(line: 1, column: 1))
        #expect(found.requires[3].location == SourceLocation(line: 4, column: 11))
        #expect(found.requires[5].location == SourceLocation(line: 7, column: 21))
    }

    @Test func conditionalRequires() throws {
        let found = try facts(
            """
            local ok, lb = pcall(require, "pl.luabalanced")
            if not ok then lb = require "luabalanced" elseif x then require "b" else require "c" end
            local json = ok and require "dkjson" or require "cjson"
            while x do require "d" end
            for i = 1, 2 do require "e" end
            repeat require "f" until true
            if require "g" then end
            """)
        #expect(
            found.requires.map(\.module) == [
                "pl.luabalanced", "luabalanced", "b", "c", "dkjson", "cjson", "d", "e", "f", "g",
            ])
        #expect(found.requires.map(\.isConditional) == [false, true, true, true, true, true, true, true, false, false])
        #expect(
            found.requires.map(\.runsAtLoad) == [false, false, false, false, false, false, false, false, true, true])
    }

    @Test func longLeftNestedChainsDoNotRecurse() throws {
        // Valid Lua at any length: the analyzer must not walk these by recursion.
        let sum = "local a = 1\nx = a" + String(repeating: " + a", count: 300_000) + " + undefinedName"
        let calls = "local o = {}\no" + String(repeating: ":m()", count: 200_000) + ".f(require 'deep')"
        let logic = "y = a" + String(repeating: " or a", count: 5_000)
        for chunk in [sum, calls, logic] {
            try LuaState().check(chunk, chunkName: "long.lua")
        }
        #expect(try facts(sum).globalReads.map(\.name) == ["undefinedName"])
        #expect(try facts(calls).requires.map(\.module) == ["deep"])
        #expect(try facts(logic).globalReads.count == 5_001)
    }

    @Test func aLocalRequireIsNotTheGlobal() throws {
        #expect(try facts("local require = function() end require 'x'").requires.isEmpty)
        #expect(try facts("local _ENV = {} require 'x'").requires.isEmpty)
    }

    @Test func resourceUses() throws {
        let found = try facts(
            """
            local image = getResource("img/logo", "png")
            local text = getResource("h2g2", "txt", function(data) end)
            local dynamic = getResource(name, "png")
            """)
        #expect(
            found.resourceUses == [
                .init(name: "img/logo", type: "png", location: SourceLocation(line: 1, column: 15)),
                .init(name: "h2g2", type: "txt", location: SourceLocation(line: 2, column: 14)),
            ])
    }

    @Test func stringLiteralsAreTheSourcesLiteralsOnly() throws {
        let found = try facts(
            """
            local t = {key = "value", ["k2"] = [[long]]}
            t.field = 'x' .. "\\65"
            t:method()
            """)
        #expect(found.stringLiterals == ["value", "k2", "long", "x", "A"])
    }
}
