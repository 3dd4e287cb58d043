import FlowDiagnostics
import FlowProject
import FlowLoader
import FlowPackage
import FlowTestSupport
import Foundation
import Testing

/// What real code bases need from validate (issue 13): `#!` lines, stock Lua's module
/// resolution, file names with '-', no echo of a syntax error as warnings, FP301's column and
/// hint, FP405's guards and environments, and suppression.
@Suite struct RealCodeRulesTests {
    /// A project in a temporary folder with `files` (paths relative to the project folder).
    static func project(_ files: [String: String], json: String? = nil) throws -> URL {
        let root = try Scratch("realcode").url
        let projectFile = json ?? #"{"name": "R", "identifier": "com.example.r", "version": "1.0.0"}"#
        for (path, text) in files.merging(["flowpkg.json": projectFile], uniquingKeysWith: { a, _ in a }) {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }

    static func validate(_ files: [String: String], json: String? = nil) throws -> (
        report: ValidationReport, places: [String]
    ) {
        let root = try project(files, json: json)
        defer { try? FileManager.default.removeItem(at: root) }
        let report = Validator.validate(projectAt: root)
        return (report, report.diagnostics.map { "\($0.code)@\($0.place(relativeTo: root))" })
    }

    // MARK: #!

    @Test func aShebangLineIsAcceptedAndLinesStayTheFiles() throws {
        let clean = try Self.validate(["Sources/main.lua": "#!/usr/bin/env lua5.4\nprint(1)\n"])
        #expect(clean.places == [])
        let broken = try Self.validate(["Sources/main.lua": "#!/usr/bin/env lua5.4\nlocal x = = 1\n"])
        #expect(broken.places == ["FP301@Sources/main.lua:2:11"])
        let bom = try Self.validate(["Sources/main.lua": "\u{FEFF}#!/usr/bin/lua\nreturn 1\n"])
        #expect(bom.places == [])
    }

    // MARK: Module names

    @Test func fooBesideFooInitResolvesAsStockLua() throws {
        let root = try Self.project(
            [
                "Sources/main.lua":
                    "local a, b, c, d = require 'foo', require 'foo.init', require 'bar', require 'bar.init'\nreturn a, b, c, d\n",
                "Sources/foo.lua": "return 1\n", "Sources/foo/init.lua": "return 2\n",
                "Sources/bar/init.lua": "return 3\n",
            ], json: #"{"name": "R", "identifier": "com.example.r", "version": "1.0.0", "startModule": "main"}"#)
        defer { try? FileManager.default.removeItem(at: root) }
        let report = Validator.validate(projectAt: root)
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        let project = try #require(report.project)
        #expect(
            project.modules.map { "\($0.name)=\($0.relativePath)" } == [
                "bar=bar/init.lua", "foo=foo.lua", "foo.init=foo/init.lua", "main=main.lua",
            ])
        #expect(project.module(named: "foo")?.relativePath == "foo.lua")
        #expect(project.module(named: "foo.init")?.relativePath == "foo/init.lua")
        #expect(project.module(named: "bar.init")?.relativePath == "bar/init.lua")
        #expect(project.module(named: "main.init") == nil)

        // The loader finds the same files in the folder and in the exported package.
        let output = root.appendingPathComponent("R.luapkg")
        let export = Exporter.export(projectAt: root, options: ExportOptions(output: output.path))
        #expect(export.package != nil, "\(export.diagnostics)")
        for target in [root, output] {
            let loader = try RunTarget.open(target, identifier: nil).loader
            for (name, chunk) in [
                ("foo", "foo.lua"), ("foo.init", "foo/init.lua"), ("bar", "bar/init.lua"), ("bar.init", "bar/init.lua"),
            ] {
                let code = try loader.module(named: ModuleName(name))
                #expect(code.path == chunk, "\(target.lastPathComponent): \(name) is \(code.path)")
                #expect(code.name.rawValue == name)
            }
            #expect(throws: LoaderError.self) { try loader.module(named: ModuleName("main.init")) }
        }
    }

    @Test func fileNamesWithDashesAreModules() throws {
        let result = try Self.validate([
            "Sources/main.lua": "local u = require 'lpeg-utility'\nlocal p = require 'pt-BR'\nreturn u, p\n",
            "Sources/lpeg-utility.lua": "return {}\n", "Sources/pt-BR.lua": "return {}\n",
        ])
        #expect(result.places == [])
        #expect(result.report.project?.module(named: "lpeg-utility") != nil)
    }

    @Test func aSlashInARequiredNameFindsTheFileAsStockLua() throws {
        let result = try Self.validate([
            "Sources/main.lua": "local m = require 'spec/helpers'\nlocal n = require 'spec/missing'\nreturn m, n\n",
            "Sources/spec/helpers.lua": "return {}\n",
        ])
        #expect(result.places == ["FP401@Sources/main.lua:2:11"])
        #expect(ModuleName.required("spec/helpers")?.rawValue == "spec.helpers")
        #expect(ModuleName.required("lpeg-utility")?.rawValue == "lpeg-utility")
        #expect(ModuleName.required("/etc/passwd") == nil)
        #expect(ModuleName.required("../up") == nil)
        #expect(ModuleName.required("a//b") == nil)
    }

    @Test(
        arguments: [
            ("lpeg-utility", nil), ("end", nil), ("2d.x", nil), ("a b", nil), ("é.ü", nil), ("pt-BR", nil),
            ("", "it is empty"), ("a..b", "it has an empty part between dots"),
            (".a", "it has an empty part between dots"),
            ("a/b", "'a/b' holds '/', which cannot be part of a module's file name"),
            ("a\\b", "'a\\b' holds '\\', which cannot be part of a module's file name"),
            ("a:b", "'a:b' holds ':', which cannot be part of a module's file name"),
            ("a\u{1}b", "'a\u{1}b' holds a control character, which cannot be part of a module's file name"),
        ] as [(String, String?)])
    func moduleNameRules(name: String, problem: String?) {
        #expect(ModuleName.problem(in: name) == problem)
    }

    // MARK: Errors are not echoed

    @Test func aModuleWithASyntaxErrorDoesNotMakeItsResourcesUnnamed() throws {
        let result = try Self.validate([
            "Sources/main.lua":
                "local logo = getResource('logo', 'png')\nfunction helperDefinedInMain() end\nlocal x = = 1\n",
            "Sources/other.lua": "return helperDefinedInMain()\n",
            "Resources/logo.png": "png", "Resources/unused.txt": "nobody",
        ])
        #expect(result.places == ["FP406@Resources/unused.txt", "FP301@Sources/main.lua:3:11"])
    }

    // MARK: FP301

    @Test func syntaxErrorsPointAtTheTokenWithAHint() throws {
        // Lua quotes the string's value (with a real tab), which is not on the line as written.
        let escaped = try Self.validate(["Sources/main.lua": "x = 1 \"a\\tb\"\n"])
        #expect(escaped.places == ["FP301@Sources/main.lua:1:7"])
        // The second '1', not the first.
        let repeated = try Self.validate(["Sources/main.lua": "x = 1 1\n"])
        #expect(repeated.places == ["FP301@Sources/main.lua:1:7"])
        let unclosed = try Self.validate(["Sources/main.lua": "function f()\n  return 1\n"])
        #expect(
            unclosed.report.diagnostics.first?.hint
                == "the 'function' at line 1 is not closed here: add the missing 'end', or remove a stray one above")
        #expect(repeated.report.diagnostics.first?.hint != nil)
    }

    // MARK: FP405

    static func undefined(_ code: String, json: String? = nil) throws -> [String] {
        try validate(["Sources/main.lua": code], json: json).report.diagnostics.filter { $0.code.code == "FP405" }
            .map { "\($0.line ?? 0):\($0.message.prefix { $0 != ":" })" }
    }

    @Test func guardedGlobalsAreNotReported() throws {
        #expect(try Self.undefined("local unpack = table.unpack or unpack\nreturn unpack\n") == [])
        #expect(try Self.undefined("local load = loadstring or load\nreturn load\n") == [])
        #expect(try Self.undefined("if setfenv then setfenv(print, {}) end\n") == [])
        #expect(try Self.undefined("if type(jit) == 'table' then print(jit.version) end\n") == [])
        // Issue 34: tested or not, a name of no Lua version is undefined (luacheck's 113 too).
        #expect(
            try Self.undefined("if myHostHook ~= nil then myHostHook() end\n") == [
                "1:'myHostHook' is not defined", "1:'myHostHook' is not defined",
            ])
        #expect(
            try Self.undefined("local cfg = configuraton or {}\nreturn cfg\n") == ["1:'configuraton' is not defined"])
        #expect(try Self.undefined("local setfenv = setfenv\nif setfenv then setfenv(print, {}) end\n") == [])
        // Lua 5.1 names in code that may not run are compatibility code.
        #expect(try Self.undefined("if _VERSION == 'Lua 5.1' then return getfenv(1) end\n") == [])
    }

    @Test func globalsDefinedThroughTheGlobalTableCount() throws {
        let result = try Self.validate([
            "Sources/a.lua": "_G.shared = 1\nfunction _G.helper() end\nrawset(_G, 'other', 2)\n_G['keyed'] = 3\n",
            "Sources/b.lua": "return shared, helper, other, keyed\n",
        ])
        #expect(result.places == [])
    }

    /// Issue 34: as luacheck has it, a free name is a global whatever the module's environment
    /// (Lua's manual calls `_ENV.x` a global too): reading one nothing declares is reported.
    @Test func modulesWithTheirOwnEnvironmentAreReportedAsLuacheckDoes() throws {
        #expect(try Self.undefined("local _ENV = {print = print}\nx = 1\nreturn y\n") == ["3:'y' is not defined"])
        #expect(
            try Self.undefined("_ENV = setmetatable({}, {__index = _G})\nreturn notDefinedHere\n") == [
                "2:'notDefinedHere' is not defined"
            ])
        #expect(
            try Self.undefined("local M = {}\nsetfenv(1, M)\nreturn anything\n") == [
                "2:'setfenv' is not defined", "3:'anything' is not defined",
            ])
    }

    @Test func realTyposAreStillReported() throws {
        #expect(try Self.undefined("pirnt('hello')\n") == ["1:'pirnt' is not defined"])
        #expect(
            try Self.undefined("local function f() if x then pirnt(1) end end\n") == [
                "1:'x' is not defined", "1:'pirnt' is not defined",
            ])
        // setfenv on another function does not hide the module's own typos.
        #expect(
            try Self.undefined("setfenv(print, {})\nreturn pirnt\n") == [
                "1:'setfenv' is not defined", "2:'pirnt' is not defined",
            ])
        // `not x` as a value, not a condition: a never-defined global read.
        #expect(try Self.undefined("local skip = not file and true\nreturn skip\n") == ["1:'file' is not defined"])
        let unpack = try Self.validate(["Sources/main.lua": "return unpack({1})\n"]).report.diagnostics
        #expect(unpack.map(\.hint) == ["it was removed in Lua 5.2: use table.unpack"])
        let typo = try Self.validate(["Sources/main.lua": "pirnt('x')\n"]).report.diagnostics
        #expect(typo.map(\.hint) == ["did you mean 'print'?"])
    }

    // MARK: Suppression

    @Test func inlineCommentsSilenceTheirLine() throws {
        #expect(try Self.undefined("pirnt(1) -- flowpkg: ignore FP405\npirnt(2)\n") == ["2:'pirnt' is not defined"])
        #expect(try Self.undefined("pirnt(1) -- flowpkg: ignore FP401, FP405 because the host has it\n") == [])
        #expect(try Self.undefined("pirnt(1) --flowpkg: ignore\n") == [])
        #expect(try Self.undefined("pirnt(1) -- flowpkg: ignore FP406\n") == ["1:'pirnt' is not defined"])
        // Alone on its line, the comment covers the next line too.
        #expect(
            try Self.undefined("-- flowpkg: ignore FP405\nlocal a = foo\nlocal b = bar\n") == ["3:'bar' is not defined"]
        )
        #expect(try Self.undefined("local a = foo\n-- flowpkg: ignore-file FP405\nlocal b = bar\n") == [])
        // Inside a string it is no comment.
        #expect(try Self.undefined("local s = 'flowpkg: ignore FP405' pirnt(s)\n") == ["1:'pirnt' is not defined"])
    }

    @Test func luacheckCommentsSilenceUndefinedGlobals() throws {
        #expect(try Self.undefined("local t = terralib -- luacheck: ignore\n") == [])
        #expect(
            try Self.undefined("local t = terralib --luacheck: ignore 113\nreturn other\n") == [
                "2:'other' is not defined"
            ])
        #expect(
            try Self.undefined("-- luacheck: globals newproxy\nlocal a = newproxy\nreturn foo\n") == [
                "3:'foo' is not defined"
            ])
        #expect(try Self.undefined("-- luacheck: ignore 113/foo\nreturn foo, bar\n") == ["2:'bar' is not defined"])
        #expect(try Self.undefined("return foo -- luacheck: ignore 211\n") == ["1:'foo' is not defined"])
    }

    @Test func theProjectFileIgnoreList() throws {
        let files = [
            "Sources/main.lua": "getResource('logo', 'png')\nreturn hostThing\n",
            "Resources/logo.png": "png", "Resources/runtime/a.txt": "a", "Resources/runtime/deep/b.txt": "b",
            "Resources/c.txt": "c",
        ]
        let json = #"""
            {"name": "R", "identifier": "com.example.r", "version": "1.0.0",
             "ignore": ["FP405", {"code": "FP406", "path": "Resources/runtime/*"}]}
            """#
        #expect(try Self.validate(files, json: json).places == ["FP406@Resources/c.txt"])
        let plain = try Self.validate(files).places
        #expect(
            plain == [
                "FP406@Resources/c.txt", "FP406@Resources/runtime/a.txt", "FP406@Resources/runtime/deep/b.txt",
                "FP405@Sources/main.lua:2:8",
            ])
    }

    @Test func onlyAnalysisCodesCanBeIgnored() throws {
        let json =
            #"{"name": "R", "identifier": "com.example.r", "version": "1.0.0", "ignore": ["FP301", {"path": "x"}, 4, {"code": "FP405", "why": 1}]}"#
        let result = try Self.validate(["Sources/main.lua": "return 1\n"], json: json)
        #expect(result.report.diagnostics.map(\.code.code) == ["FP106", "FP104", "FP102", "FP103"])
        #expect(
            result.report.diagnostics.first?.message
                == "'FP301' cannot be ignored: only static-analysis and lint codes (FP401 to FP483) can")
    }
}
