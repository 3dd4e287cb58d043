import CLua
import FlowLua
import FlowLoader
import FlowPackage
import FlowTestSupport
import Foundation
import Testing
@testable import FlowRuntime

/// A C module's opener written in Swift: `require "swiftmath"` gets `{ answer = 42, twice = f }`.
private let swiftMathOpener: LuaCFunction = { L in
    lua_createtable(L, 0, 2)
    lua_pushinteger(L, 42)
    lua_setfield(L, -2, "answer")
    flowlua_pushcfunction(
        L,
        { L in
            lua_pushinteger(L, 2 * flowlua_tointeger(L, 1))
            return 1
        })
    lua_setfield(L, -2, "twice")
    return 1
}

/// What real programs rely on from stock lua5.4: script arguments, `#!` lines, C modules, and
/// a package's modules checked against their SHA-256 when first loaded.
@Suite struct RuntimeFidelityTests {
    @Test func theStartModuleReceivesItsArgumentsAsDots() throws {
        let (context, _) = try makeContext(modules: [
            "main": "seen = table.pack(...)\nreturn select('#', ...)",
            "util": "return table.pack(...)",
        ])
        #expect(try context.loadModule(ModuleName("main"), arguments: ["a", "b c"]) == .integer(2))
        #expect(try context.execute("return seen[1], seen[2], seen.n") == ["a", "b c", 2])
        // Loaded once, as require does: a second load returns the kept result.
        #expect(try context.loadModule(ModuleName("main"), arguments: ["x"]) == .integer(2))
        #expect(try context.execute("return package.loaded.main") == [2])
        // Other modules still get their name and file from require.
        #expect(try context.execute("local t = require 'util' return t[1], t[2]") == ["util", "util.lua"])
        // A reload passes the start module its arguments again.
        try context.execute("seen = nil")
        #expect(try context.reloadModule(ModuleName("main")))
        #expect(try context.execute("return seen[1], seen[2]") == ["a", "b c"])
    }

    @Test func aShebangLineIsSkippedAndLineNumbersKept() throws {
        let (context, _) = try makeContext(modules: [
            "main": "#!/usr/bin/env lua\nlocal x = 1\nerror('line three')\n",
            "bom": "\u{FEFF}#!/usr/bin/env lua -i\nreturn 'bom'",
        ])
        #expect {
            try context.loadModule(ModuleName("main"))
        } throws: { error in
            (error as? LuaError)?.message == "main.lua:3: line three"
        }
        #expect(try context.loadModule(ModuleName("bom")) == "bom")
    }

    @Test func hostCModulesRegisterThroughTheContext() throws {
        let (context, _) = try makeContext(options: .init(cModules: ["swiftmath": swiftMathOpener]))
        #expect(try context.execute("local m = require 'swiftmath' return m.answer, m.twice(21)") == [42, 42])
        try context.registerCModule("later.math", opener: swiftMathOpener)
        #expect(try context.execute("return require('later.math').twice(5)") == [10])
        // The host's own modules are there in the sandbox too.
        let (boxed, _) = try makeContext(options: .init(sandbox: .default, cModules: ["swiftmath": swiftMathOpener]))
        #expect(try boxed.execute("return require('swiftmath').answer") == [42])
    }

    @Test func declaredExternalModulesLoadFromTheCPathAndNothingElse() throws {
        let (context, _) = try makeContext(options: .init(externalModules: ["lfs"]))
        #expect(
            try context.execute("local lfs = require 'lfs' return type(lfs.currentdir()), package.loaded.lfs == lfs")
                == ["string", true])
        // lpeg is on the same C path, but not declared: never loaded from disk.
        #expect {
            try context.execute("require 'lpeg'")
        } throws: { error in
            let message = (error as? LuaError)?.message ?? ""
            return message.contains("module 'lpeg' not found") && !message.contains("lpeg.so")
        }
        // Without any declared module the C path is not even set.
        let (plain, _) = try makeContext()
        #expect(try plain.execute("return package.cpath") == [""])
        #expect(throws: LuaError.self) { try plain.execute("require 'lfs'") }
        // A C path of the host's choosing.
        let (custom, _) = try makeContext(options: .init(externalModules: ["lfs"], cPath: "/nowhere/?.so"))
        #expect {
            try custom.execute("require 'lfs'")
        } throws: { error in
            ((error as? LuaError)?.message ?? "").contains("no file '/nowhere/lfs.so'")
        }
    }

    @Test func externalModulesAreRefusedInTheSandboxWithAClearError() throws {
        let (context, _) = try makeContext(options: .init(sandbox: .default, externalModules: ["lfs"]))
        #expect {
            try context.execute("require 'lfs'")
        } throws: { error in
            ((error as? LuaError)?.message ?? "").contains(
                "C module 'lfs' is declared in externalModules, but C modules are not loaded in the sandbox")
        }
        // The sandbox keeps no package.cpath at all.
        #expect(try context.execute("return package.cpath") == [.nil])
    }

    @Test func aTamperedModuleIsRefusedWhenRequiredAndNeverRuns() throws {
        let folder = try Scratch("runtime").url
        defer { try? FileManager.default.removeItem(at: folder) }
        // Flipping the first byte turns `util = 1` into `Util = 1`: still Lua, so only the
        // SHA-256 check keeps `sideEffect` from being set.
        let package = try PackageFixtures.write(
            folder.appendingPathComponent("App.luapkg"),
            modules: [
                "main.lua": "return 'main ran'",
                "util.lua": "util = 1\nsideEffect = 'util ran'\nreturn 1",
                "unused.lua": "unused = 1\nreturn 1",
            ])
        try PackageSurgery.corrupt(package, entry: "modules/util.lua")
        try PackageSurgery.corrupt(package, entry: "modules/unused.lua")
        let source = try EmbeddedPackageSource(contentsOf: package)
        let id = try PackageIdentifier("com.example.app")
        let context = try LuaContext(
            name: "tamper", packageIdentifier: id, loader: Loader(identifier: id, sources: [source]))
        // The program runs: the tampered modules are never required by main.
        #expect(try context.loadModule(ModuleName("main")) == "main ran")
        #expect {
            try context.execute("require 'util'")
        } throws: { error in
            let message = (error as? LuaError)?.message ?? ""
            return message.contains("error loading module 'util'") && message.contains(package.path)
                && message.contains("modules/util.lua: sha256 mismatch")
        }
        #expect(try context.execute("return sideEffect, Util, util") == [.nil, .nil, .nil])
        // Asked again, it is refused again: a bad entry is never served.
        #expect(throws: LuaError.self) { try context.execute("require 'util'") }
        #expect(try context.execute("return sideEffect") == [.nil])
    }
}
