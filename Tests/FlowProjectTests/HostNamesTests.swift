import FlowLua
import FlowPackage
import Foundation
import Testing
@testable import FlowAnalysis
@testable import FlowDiagnostics
@testable import FlowProject

/// Issue 24's analysis: modules a program registers at run time, host names by glob, a
/// `.luacheckrc` evaluated as luacheck does, and FP401 only where a require runs at start.
@Suite struct HostNamesTests {
    func facts(_ source: String) throws -> ModuleFacts {
        try #require(ModuleAnalyzer.analyze(Array(source.utf8)))
    }

    func module(_ name: String, _ source: String) throws -> ProjectRules.Module {
        ProjectRules.Module(name: try ModuleName(name), file: name + ".lua", facts: try facts(source))
    }

    @Test func modulesRegisteredAtRunTimeAreNoted() throws {
        let noted = try facts(
            """
            package.preload["gen.config"] = function() return {} end
            package.preload.other = loader
            package.loaded.bytes = core.bytes
            package.loaded["lgi.core"] = core
            local t = {}; t.preload = {}; t.preload.notAModule = 1
            """)
        #expect(noted.registeredModules == ["gen.config", "other", "bytes", "lgi.core"])
        #expect(!noted.addsSearcher)
        for searcher in [
            "table.insert(package.searchers, function(name) end)",
            "package.searchers[#package.searchers + 1] = mine",
            "for name, f in pairs(bundle) do package.preload[name] = f end",
            "package.path = dir .. '?.lua;' .. package.path",
        ] {
            #expect(try facts(searcher).addsSearcher, "\(searcher)")
        }
        #expect(try !facts("local package = {}; table.insert(package.searchers, f)").addsSearcher)
        #expect(try !facts("local p = package.path").addsSearcher)
    }

    @Test func registeredNamesAndSearchersAreNoUnknownModules() throws {
        let environment = Environment.lua
        let registering = try module("boot", "package.preload['gen.config'] = function() return {} end")
        let main = try module("main", "require 'boot'\nlocal c = require 'gen.config'\nlocal v = require 'virtual.x'")
        var diagnostics = ProjectRules.check(
            modules: [main, registering], moduleNames: [main.name, registering.name], resources: [:],
            environment: environment)
        #expect(diagnostics.map(\.code.code) == ["FP401"])
        #expect(diagnostics.first?.message.contains("virtual.x") == true)
        // A searcher of the program's own may find any name: a warning that says so.
        let searching = try module("boot", "table.insert(package.searchers, function(name) end)")
        diagnostics = ProjectRules.check(
            modules: [main, searching], moduleNames: [main.name, searching.name], resources: [:],
            environment: environment)
        #expect(diagnostics.map(\.code.code) == ["FP402", "FP402"])
        #expect(diagnostics.allSatisfy { $0.hint?.contains("package.searchers") == true })
    }

    @Test func anUnknownTopLevelRequireIsAnErrorInEveryModule() throws {
        let main = try module("main", "local a = require 'a'\nlocal function later() return require 'b' end")
        let a = try module("a", "return require 'missing.one'")
        let b = try module("b", "return require 'missing.two'")
        let unused = try module("unused", "return require 'missing.three'")
        let modules = [main, a, b, unused]
        let names = Set(modules.map(\.name))
        let atStart = ProjectRules.check(
            modules: modules, moduleNames: names, resources: [:], environment: .lua,
            startModule: try ModuleName("main"))
        // Issue 34: certain in every module, reached at start or not; only the message differs.
        #expect(atStart.map { "\($0.code) \($0.file ?? "")" } == ["FP401 a.lua", "FP401 b.lua", "FP401 unused.lua"])
        #expect(atStart[0].message.contains("it fails when 'a' loads"))
        #expect(atStart[1].message.contains("it fails whenever 'b' loads"))
        // A library (no start module): every top-level require may run, as before.
        let library = ProjectRules.check(modules: modules, moduleNames: names, resources: [:], environment: .lua)
        #expect(library.map(\.code.code) == ["FP401", "FP401", "FP401"])
    }

    @Test func globsStandForAnyRunOfCharacters() {
        #expect(Environment.glob("rspamd_*", matches: "rspamd_config"))
        #expect(Environment.glob("*_config", matches: "rspamd_config"))
        #expect(Environment.glob("a*b*c", matches: "a-b-c"))
        #expect(Environment.glob("a*b*c", matches: "abc"))
        #expect(!Environment.glob("a*b*c", matches: "acb"))
        #expect(!Environment.glob("rspamd_*", matches: "rspamd"))
        #expect(!Environment.glob("*_config", matches: "config"))
        let environment = Environment.lua.extended(
            globals: ["rspamd_*", "*_config", "plain"], externalModules: ["lua_*", "MyHost.*", "lfs"])
        #expect(environment.defines(global: "rspamd_logger"))
        #expect(environment.defines(global: "task_config"))
        #expect(!environment.defines(global: "rspamd"))
        #expect(environment.provides(module: "lua_util"))
        #expect(environment.provides(module: "MyHost.View"))
        #expect(!environment.provides(module: "luaunit"))
        #expect(Manifest.externalModuleProblem("rspamd_*") == nil)
        #expect(Manifest.externalModuleProblem("*") != nil)
        #expect(Manifest.externalModuleProblem("a?*") != nil)
    }

    @Test func luacheckrcIsEvaluatedAsLuacheckDoes() throws {
        let names = try LuacheckConfig.evaluate(
            Array(
                """
                std = "lua54+busted"
                globals = { "prosody", hosts = { fields = { "get" } } }
                read_globals = { "wesnoth" }
                new_read_globals = { string.format("%s_%s", "computed", "name") }
                stds.nginx = { read_globals = { "ngx" } }
                files["spec/**"] = { std = "+nginx", globals = { "spec_helper" } }
                files["scripts"].read_globals = { "script_api" }
                """.utf8), chunkName: ".luacheckrc")
        for name in ["prosody", "hosts", "wesnoth", "computed_name", "ngx", "spec_helper", "script_api", "describe"] {
            #expect(names.contains(name), "\(name) in \(names)")
        }
        #expect(!names.contains("get"))
    }

    @Test func luacheckrcRunsWithNoIOAndABudget() throws {
        for (source, reason) in [
            ("globals = { io.open('/etc/passwd'):read('a') }", "io"),
            ("os.execute('true')", "os"),
            ("require 'lfs'", "require"),
            ("while true do end", "runs too long"),
            ("while true do pcall(function() while true do end end) end", "runs too long"),
            ("globals = {", "expected"),
        ] {
            #expect(throws: LuaError.self, "\(source)") {
                _ = try LuacheckConfig.evaluate(Array(source.utf8), chunkName: ".luacheckrc")
            }
            do {
                _ = try LuacheckConfig.evaluate(Array(source.utf8), chunkName: ".luacheckrc")
            } catch {
                #expect("\(error)".contains(reason), "\(source): \(error)")
            }
        }
    }
}
