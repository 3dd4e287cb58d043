import FlowPackage
import Testing
@testable import FlowAnalysis
@testable import FlowDiagnostics

/// Issue 24: a require cycle is an error only where it fails when the program starts: in the
/// start module, in a script (an entry point a host runs by path), or in a module they require
/// at their top level, transitively; elsewhere a warning of its own code. Issue 34: what is
/// certain is an error in every module, reached at start or not: a syntax error, and at a
/// module's top level an unknown require or a getResource naming no resource.
@Suite struct StartReachTests {
    func module(_ name: String, _ source: String) throws -> ProjectRules.Module {
        ProjectRules.Module(
            name: try ModuleName(name), file: name + ".lua",
            facts: try #require(ModuleAnalyzer.analyze(Array(source.utf8))))
    }

    func check(
        _ modules: [ProjectRules.Module], broken: [String] = [], scripts: Set<String> = [], start: String? = "main"
    )
        throws -> [String]
    {
        let uncompiled = try broken.map {
            ProjectRules.UncompiledModule(
                name: try ModuleName($0),
                diagnostic: Diagnostic(
                    severity: .error, code: .luaSyntaxError, message: "unexpected symbol", file: $0 + ".lua", line: 1,
                    column: 1))
        }
        var names = Set(modules.map(\.name))
        for name in broken { names.insert(try ModuleName(name)) }
        return ProjectRules.check(
            modules: modules, moduleNames: names, resources: [:],
            environment: .lua.extended(globals: ["getResource"], externalModules: []),
            scripts: scripts, startModule: try start.map { try ModuleName($0) }, uncompiled: uncompiled
        ).map { "\($0.code) \($0.file ?? "")" }
    }

    @Test func aSyntaxErrorIsAnErrorInEveryModule() throws {
        let main = try module("main", "local a = require 'a'\nlocal function later() return require 'lazy' end")
        let a = try module("a", "return require 'broken.eager'")
        #expect(
            try check([main, a], broken: ["broken.eager", "lazy"]) == ["FP301 broken.eager.lua", "FP301 lazy.lua"])
        // A module reached only through a lazy one: an error all the same.
        let lazy = try module("lazy", "return require 'deep'")
        #expect(
            try check([main, a, lazy], broken: ["broken.eager", "deep"]) == [
                "FP301 broken.eager.lua", "FP301 deep.lua",
            ])
        // A start module the project does not have (FP209) tells nothing: graded as a library.
        #expect(
            try check([a], broken: ["broken.eager", "lazy"], start: "Main") == [
                "FP301 broken.eager.lua", "FP301 lazy.lua",
            ])
        // A library: any module may load first.
        #expect(
            try check([main, a], broken: ["broken.eager", "lazy"], start: nil) == [
                "FP301 broken.eager.lua", "FP301 lazy.lua",
            ])
    }

    @Test func aCycleIsAnErrorOnlyWhenOneOfItsModulesLoadsAtStart() throws {
        let a = try module("a", "local b = require 'b'")
        let b = try module("b", "local a = require 'a'")
        let lazyMain = try module("main", "local function later() return require 'a' end")
        #expect(try check([lazyMain, a, b]) == ["FP407 a.lua"])
        let eagerMain = try module("main", "local x = require 'b'")
        #expect(try check([eagerMain, a, b]) == ["FP403 a.lua"])
        // A script's top level is a start too.
        let script = try module("tools.run.lib", "local a = require 'a'")
        #expect(try check([lazyMain, a, b, script], scripts: ["tools/run.lib.lua"]) == ["FP403 a.lua"])
        // A require inside a function breaks the cycle: nothing to report.
        let c = try module("c", "local function f() return require 'a' end")
        let a2 = try module("a", "local c = require 'c'")
        let mainOfA = try module("main", "local x = require 'a'")
        #expect(try check([mainOfA, a2, c]) == [])
    }

    @Test func aMissingResourceIsAnErrorWhereverItRunsWhenItsModuleLoads() throws {
        let main = try module(
            "main",
            """
            local x = getResource("missing.top", "png")
            local function later() return getResource("missing.inside", "png") end
            if x then getResource("missing.branch", "png") end
            local function lazy() return require 'other' end
            """)
        let other = try module("other", "return getResource('missing.other', 'png')")
        // `other` loads only when lazy() runs, but its top-level call fails whenever it loads.
        #expect(try check([main, other]) == ["FP404 main.lua", "FP408 main.lua", "FP408 main.lua", "FP404 other.lua"])
    }
}
