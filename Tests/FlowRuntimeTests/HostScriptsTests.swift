import FlowLoader
import FlowTestSupport
import FlowPackage
import Foundation
import Testing
@testable import FlowRuntime

/// A Swift host and scripts (Lua files loaded by path), and a host closing its context: the
/// package's scripts load through `LuaContext.loadScript` and Lua's `dofile`/`loadfile`, each
/// checked against its SHA-256 when loaded; `terminate()` runs finalizers before it returns.
@Suite struct HostScriptsTests {
    let folder: URL

    init() throws {
        folder = try Scratch("scripts").url
    }

    /// A real package with `modules` (name → code) and `scripts` (path → code).
    func writePackage(modules: [String: String], scripts: [String: String]) throws -> URL {
        let inputs = folder.appendingPathComponent("inputs")
        var input = PackageInput(
            identifier: try PackageIdentifier("com.example.scripts"), name: "Scripts", version: "1.0.0",
            startModule: try ModuleName("main"), modules: [], resources: [])
        for (name, code) in modules {
            let file = inputs.appendingPathComponent(name + ".lua")
            try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
            try Data(code.utf8).write(to: file)
            input.modules.append(.init(name: try ModuleName(name), relativePath: name + ".lua", file: file))
        }
        for (path, code) in scripts {
            let file = inputs.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(code.utf8).write(to: file)
            input.scripts.append(.init(relativePath: path, file: file))
        }
        let output = folder.appendingPathComponent("Scripts.luapkg")
        try PackageWriter.write(input, to: output)
        return output
    }

    @Test func aHostLoadsScriptsByPathAndLuaDoesToo() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writePackage(
            modules: ["main": "return dofile('muc/password.lib.lua').check('s3cret')"],
            scripts: [
                "muc/password.lib.lua": "return { check = function(guess) return guess == 's3cret' end }",
                "atl01.wmf/scripting/init.lua": "#!/usr/bin/env lua5.4\nlocal name, n = ...\nreturn name .. '!', n * 2",
            ])
        let context = try LuaContext(package: try PackageIdentifier("com.example.scripts"), in: [folder])
        #expect(try context.loadStartModule() == .bool(true))
        #expect(
            try context.loadScript("atl01.wmf/scripting/init.lua", arguments: [.string("atl01"), .integer(21)])
                == [.string("atl01!"), .integer(42)])
        // A path that is no packaged script is stock Lua's: here a file that is not there.
        #expect(throws: LuaContextError.noSuchScript("none.lua")) { try context.loadScript("none.lua") }
        let missing = try context.execute("return select(2, loadfile('no/such.lib.lua'))")
        #expect(missing.first?.stringValue?.hasPrefix("cannot open no/such.lib.lua") == true, "\(missing)")
    }

    @Test func aScriptWhoseBytesChangedIsNeverRun() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let package = try writePackage(
            modules: ["main": "return 1"], scripts: ["tool.lib.lua": "ran = true\nreturn 'tool'"])
        #expect(try PackageSurgery.corrupt(package, entry: "scripts/tool.lib.lua"))
        let context = try LuaContext(package: try PackageIdentifier("com.example.scripts"), in: [folder])
        #expect(try context.loadStartModule() == .integer(1))
        let result = try context.execute("local ok, problem = pcall(dofile, 'tool.lib.lua') return ok, problem, ran")
        #expect(result.first == .bool(false))
        #expect(result.dropFirst().first?.stringValue?.contains("scripts/tool.lib.lua") == true, "\(result)")
        #expect(result.count < 3 || result[2] == .nil)
    }

    /// `terminate()` returns once the state is closed: every finalizer has run by then.
    @Test func terminateRunsFinalizersBeforeItReturns() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writePackage(modules: ["main": "return 0"], scripts: [:])
        for _ in 0..<20 {
            let context = try LuaContext(package: try PackageIdentifier("com.example.scripts"), in: [folder])
            let finalized = Recorder<String>()
            try context.setGlobal(
                "note",
                .function(
                    LuaFunction { arguments in
                        finalized.append(arguments.first?.stringValue ?? "")
                        return []
                    }))
            try context.execute(
                "setmetatable({}, { __gc = function() note('gc') end }) _G.keep = setmetatable({}, { __gc = function() note('kept') end })"
            )
            context.terminate()
            #expect(finalized.all.sorted() == ["gc", "kept"])
            #expect(throws: LuaContextError.terminated) { try context.execute("return 1") }
        }
    }
}
