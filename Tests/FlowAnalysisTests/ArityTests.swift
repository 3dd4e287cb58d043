import FlowDiagnostics
import FlowPackage
import Testing

@testable import FlowAnalysis

/// Issue 34, what luacheck cannot do: calls passing too many values (FP482) to a local or
/// project-module function whose parameters are known, or too few (FP483) when the function
/// fails on a missing one; silent wherever the count or the function is not certain.
@Suite struct ArityTests {
    func check(_ sources: [String: String]) throws -> [String] {
        let modules = try sources.sorted { $0.key < $1.key }.map { name, source in
            ProjectRules.Module(
                name: try ModuleName(name), file: name + ".lua",
                facts: try #require(ModuleAnalyzer.analyze(Array(source.utf8))))
        }
        return LintRules.check(
            modules: modules, environment: .lua, readOnlyGlobals: Environment.lua.globals,
            options: { _ in LintOptions() }
        ).filter { $0.code == .tooManyArguments || $0.code == .missingArgument }
            .map { "\($0.file ?? ""):\($0.line ?? 0):\($0.column ?? 0) \($0.code): \($0.message)" }
    }

    @Test func tooManyValuesToALocalFunctionAreFound() throws {
        let found = try check(["main": "local function add(a, b) return a + b end\nprint(add(1, 2, 3))\n"])
        #expect(found == ["main.lua:2:7 FP482: 'add' takes 2 arguments but the call passes 3"])
        let assigned = try check(["main": "local add = function(a) return a end\nreturn add(1, 2)\n"])
        #expect(assigned == ["main.lua:2:8 FP482: 'add' takes 1 argument but the call passes 2"])
    }

    @Test func tooFewValuesAreFoundOnlyWhereTheFunctionFailsOnNil() throws {
        let found = try check([
            "main":
                "local function greet(name, opts)\n  local prefix = opts.prefix\n  return prefix .. name\nend\nreturn greet('a')\n"
        ])
        #expect(found == ["main.lua:5:8 FP483: the call passes no 'opts' to 'greet', which fails when it is nil"])
        // Lua allows fewer values: a parameter that is tested, defaulted, passed on, compared,
        // used past a branch or only inside a function is fine.
        for body in [
            "opts = opts or {}\n  return opts.prefix .. name",
            "if opts then return opts.prefix .. name end\n  return name",
            "local prefix = opts and opts.prefix or ''\n  return prefix .. name",
            "print(opts)\n  return opts.prefix .. name",
            "if name == '' then return '' end\n  return opts.prefix .. name",
            "local f = function() opts = {} end\n  f()\n  return opts.prefix",
            "error('no')\n  return opts.prefix",
            "return opts == nil and name or opts.prefix .. name",
        ] {
            let source = "local function greet(name, opts)\n  \(body)\nend\nreturn greet('a')\n"
            #expect(try check(["main": source]) == [], "\(body)")
        }
    }

    @Test func callsWhoseCountIsNotFixedOrFunctionsNotCertainAreNotJudged() throws {
        for source in [
            // The last value is a call or `...`: it may give any number of values.
            "local function add(a, b) return a + b end\nreturn add(1, (...)()), add(...)\n",
            // The function takes `...`.
            "local function log(fmt, ...) return fmt:format(...) end\nreturn log('%d', 1, 2)\n",
            // The local is set again: which function it holds is not certain.
            "local function add(a, b) return a + b end\nadd = print\nreturn add(1, 2, 3)\n",
            // A field set twice, or a table filled by a computed key.
            "local M = {}\nfunction M.f(a) return a end\nM.f = print\nM.f(1, 2)\nreturn M\n",
            "local M = {}\nfunction M.f(a) return a end\nM[...] = print\nM.f(1, 2)\nreturn M\n",
        ] {
            #expect(try check(["main": source]) == [], "\(source)")
        }
    }

    @Test func callsOfAModulesFunctionsAreJudgedAcrossTheProject() throws {
        let util = """
            local M = {}
            function M.scale(v, k) return v * k end
            function M:area(w) return self.h * w end
            M.clamp = function(x, low, high) return math.min(math.max(x, low), high) end
            return M

            """
        let found = try check([
            "util": util,
            "main": "local util = require 'util'\nprint(util.scale(1, 2, 3), util.area(), util.clamp(1, 2, 3))\n",
        ])
        #expect(
            found == [
                "main.lua:2:7 FP482: 'scale' takes 2 arguments but the call passes 3",
                "main.lua:2:28 FP483: the call passes no 'self' to 'area', which fails when it is nil",
            ])
        // A method called with `:` passes self: the count the message gives is the caller's.
        let method = try check([
            "util": util,
            "main": "local util = require 'util'\nlocal m = {}\nfunction m:f(a) return a end\nm:f(1, 2)\nreturn m\n",
        ])
        #expect(method == ["main.lua:4:1 FP482: 'f' takes 1 argument besides self but the call passes 2"])
        // A module returning a constructor of its local functions.
        let constructed = try check([
            "shapes": "local function area(w, h) return w * h end\nreturn { area = area }\n",
            "main": "local shapes = require 'shapes'\nreturn shapes.area(1, 2, 3), shapes.area(1)\n",
        ])
        #expect(
            constructed == [
                "main.lua:2:8 FP482: 'area' takes 2 arguments but the call passes 3",
                "main.lua:2:30 FP483: the call passes no 'h' to 'area', which fails when it is nil",
            ])
        // Another module replaces the function: its parameters are not certain.
        let replaced = try check([
            "util": util, "main": "local util = require 'util'\nreturn util.scale(1, 2, 3)\n",
            "patch": "local util = require 'util'\nutil.scale = function(...) return ... end\n",
        ])
        #expect(replaced == [])
    }
}
