import FlowDiagnostics
import FlowPackage
import Testing
@testable import FlowAnalysis

/// Issue 34, what luacheck cannot do: a field a required project module's table does not have
/// (FP481), with "did you mean" pointing at the definition; silent wherever the table's fields
/// are not all known.
@Suite struct ModuleFieldTests {
    func check(_ sources: [String: String]) throws -> [Diagnostic] {
        let modules = try sources.sorted { $0.key < $1.key }.map { name, source in
            ProjectRules.Module(
                name: try ModuleName(name), file: name + ".lua",
                facts: try #require(ModuleAnalyzer.analyze(Array(source.utf8))))
        }
        return LintRules.check(
            modules: modules, environment: .lua, readOnlyGlobals: Environment.lua.globals,
            options: { _ in LintOptions() }
        ).filter { $0.code == .unknownModuleField }
    }

    static let banner = """
        local Banner = {}
        Banner.frame = { width = 1 }
        function Banner.show() return Banner.frame end
        return Banner

        """

    @Test func aMisspeltFieldIsFoundWithWhereTheRightOneIsSet() throws {
        let found = try check([
            "Banner": Self.banner,
            "main": "local Banner = require \"Banner\"\nprint(Banner.fram, Banner.frame, Banner.show())\n",
        ])
        #expect(found.map { "\($0.file ?? ""):\($0.line ?? 0):\($0.column ?? 0)" } == ["main.lua:2:14"])
        #expect(found.first?.message == "module 'Banner' has no field 'fram'")
        #expect(found.first?.hint == "did you mean 'frame'? (Banner.lua:2)")
        // A constructor's fields, and a method call.
        let constructed = try check([
            "Colors": "return { red = 1, green = 2 }\n",
            "main": "local Colors = require \"Colors\"\nreturn Colors.red, Colors.gren\n",
        ])
        #expect(constructed.map { "\($0.line ?? 0):\($0.column ?? 0)" } == ["2:27"])
    }

    @Test func tablesWhoseFieldsAreNotAllKnownAreNotJudged() throws {
        let reads = "local Banner = require \"Banner\"\nreturn Banner.anything\n"
        // Filled with a computed key, given a metatable, or filled by a method it is passed to.
        for module in [
            "local M = {}\nfor _, k in ipairs({'a'}) do M[k] = 1 end\nreturn M\n",
            "local M = setmetatable({}, {__index = string})\nreturn M\n",
            "local M = {}\nsetmetatable(M, {__index = string})\nreturn M\n",
            "local M = {}\nfunction M:init() self.x = 1 end\nM:init()\nreturn M\n",
            "local _ENV = {}\nanything = 1\nreturn _ENV\n",
            "return require 'other'\n",
        ] {
            #expect(try check(["Banner": module, "main": reads]).isEmpty, "\(module)")
        }
        // Another module adds the field, or fills the table by a computed key.
        #expect(
            try check(["Banner": Self.banner, "main": reads, "plugin": "local B = require 'Banner'\nB.anything = 1\n"])
                .isEmpty)
        #expect(
            try check(["Banner": Self.banner, "main": reads, "plugin": "local B = require 'Banner'\nB[...] = 1\n"])
                .isEmpty)
    }
}

/// Issue 34: `getResource` on a name whose type the project does not have is the error FP404 at
/// a module's top level, and its hint names the resources of that name.
@Suite struct ResourceTypeTests {
    @Test func aNameWithAnotherTypeIsFoundAndTheHintNamesIt() throws {
        let facts = try #require(ModuleAnalyzer.analyze(Array("local motd = getResource(\"motd\", \"text\")\n".utf8)))
        let found = ProjectRules.check(
            modules: [ProjectRules.Module(name: try ModuleName("main"), file: "main.lua", facts: facts)],
            moduleNames: [try ModuleName("main")], resources: [try ResourceKey(name: "motd", type: "txt")],
            environment: .lua
        ).filter { $0.code == .unknownResource }
        #expect(found.map { "\($0.line ?? 0):\($0.column ?? 0)" } == ["1:14"])
        #expect(found.first?.severity == .error)
        #expect(found.first?.hint == "resources named 'motd': motd.txt")
    }
}
