import FlowDiagnostics
import FlowProject
import Foundation
import Testing

/// Issue 34: validate's global classes mean what luacheck's do, so a project's `.luacheckrc`
/// means the same and nothing luacheck finds is lost. A global is declared only by the
/// environment, flowpkg.json's `globals`, `.luacheckrc` or a deliberate `_G.x = v`; setting it
/// (`x = 1`) declares nothing, in its module or for the others (111 where set, FP405/113 at
/// every read), unless `allow_defined` says otherwise; and a free name is a global whatever
/// `_ENV` holds. Each expectation below is what luacheck 1.1 reports on the same files.
@Suite struct GlobalsAsLuacheckTests {
    static func places(_ files: [String: String], json: String? = nil) throws -> [String] {
        try RealCodeRulesTests.validate(files, json: json).places.filter {
            $0.hasPrefix("FP405") || $0.hasPrefix("FP409") || $0.hasPrefix("FP410") || $0.hasPrefix("FP411")
        }
    }

    @Test func everyReadOfAnUndefinedGlobalIsReported() throws {
        #expect(
            try Self.places(["Sources/main.lua": "pirnt(1)\nlocal x = pirnt\nreturn x\n"]) == [
                "FP405@Sources/main.lua:1:1", "FP405@Sources/main.lua:2:11",
            ])
        // Ignoring one line leaves the others.
        #expect(
            try Self.places(["Sources/main.lua": "pirnt(1) -- flowpkg: ignore FP405\npirnt(2)\n"]) == [
                "FP405@Sources/main.lua:2:1"
            ])
    }

    @Test func aGlobalSetButNeverDeclaredIsReportedWhereSetAndWhereRead() throws {
        let files = [
            "Sources/main.lua": "require 'config'\nreturn Config.name\n", "Sources/config.lua": "Config = {}\n",
        ]
        #expect(try Self.places(files) == ["FP409@Sources/config.lua:1:1", "FP405@Sources/main.lua:2:8"])
        let report = try RealCodeRulesTests.validate(files).report
        let read = try #require(report.diagnostics.first { $0.code == .undefinedGlobal })
        #expect(read.message == "'Config' is not defined: it is only set as a global, which declares nothing")
        #expect(
            read.hint?.hasSuffix(
                "config.lua:1: declare it in \"globals\" in flowpkg.json, or define it with _G.Config = ...")
                == true)
        // In its own module too, as luacheck has it.
        #expect(
            try Self.places(["Sources/main.lua": "function helper() end\nhelper()\n"]) == [
                "FP409@Sources/main.lua:1:10", "FP405@Sources/main.lua:2:1",
            ])
    }

    @Test func declaredGlobalsAreNotReported() throws {
        let files = [
            "Sources/main.lua": "require 'config'\nreturn Config.name\n", "Sources/config.lua": "Config = {}\n",
        ]
        let json = #"{"name": "R", "identifier": "com.example.r", "version": "1.0.0", "globals": ["Config"]}"#
        #expect(try Self.places(files, json: json) == [])
        #expect(
            try Self.places(["Sources/main.lua": "return Config\n", "Sources/config.lua": "_G.Config = {}\n"]) == [])
        var withConfig = files
        withConfig[".luacheckrc"] = "globals = {'Config'}\n"
        #expect(try Self.places(withConfig) == [])
    }

    @Test func allowDefinedMakesASetDeclareTheGlobal() throws {
        var files = [
            "Sources/main.lua": "require 'config'\nreturn Config.name\n",
            "Sources/config.lua": "Config = {}\nlocal function f() Later = 1 end\nreturn f\n",
        ]
        files[".luacheckrc"] = "allow_defined = true\n"
        #expect(try Self.places(files) == [])
        // allow_defined_top: only a set outside every function declares.
        files[".luacheckrc"] = "allow_defined_top = true\n"
        files["Sources/main.lua"] = "require 'config'\nreturn Config.name, Later\n"
        #expect(try Self.places(files) == ["FP409@Sources/config.lua:2:20", "FP405@Sources/main.lua:2:21"])
    }

    @Test func freeNamesAreGlobalsWhateverEnvHolds() throws {
        #expect(
            try Self.places(["Sources/main.lua": "local _ENV = {print = print}\nx = 1\nreturn y\n"]) == [
                "FP409@Sources/main.lua:2:1", "FP405@Sources/main.lua:3:8",
            ])
        // nmap's nselib modules: `_ENV = stdnse.module(...)`.
        #expect(
            try Self.places([
                "Sources/main.lua": "_ENV = setmetatable({}, {__index = _G})\nfunction debug() end\nreturn nowhere\n"
            ]) == ["FP411@Sources/main.lua:2:10", "FP405@Sources/main.lua:3:8"])
    }

    @Test func aFieldSetDeepInsideAGlobalMutatesIt() throws {
        // luacheck's 112 at the global, no read of it (113).
        #expect(try Self.places(["Sources/main.lua": "COAP.header.options = {}\n"]) == ["FP410@Sources/main.lua:1:1"])
    }
}
