import FlowPackage
import FlowTestSupport
import Foundation
import Testing

/// Module names resolve as stock Lua's searchers (`./?.lua;./?/init.lua`) resolve them, the
/// same in `flowpkg validate`, in `flowpkg run` of the folder, in the exported package's
/// manifest and in `flowpkg run` of the package; and the same as `lua5.4` itself.
@Suite struct ModuleResolutionEndToEndTests {
    static let modules = [
        "main.lua": """
        local a = require "foo"
        local b = require "foo.init"
        local c = require "bar"
        local d = require "bar.init"
        local e = require "lpeg-utility"
        local f = require "data.http-fingerprints"
        local g = require "data/http-fingerprints"
        print(a, b, c, d, e, f, g)
        """,
        "foo.lua": "return 'foo.lua'\n",
        "foo/init.lua": "return 'foo/init.lua'\n",
        "bar/init.lua": "return 'bar/init.lua'\n",
        "lpeg-utility.lua": "return 'lpeg-utility.lua'\n",
        "data/http-fingerprints.lua": "return 'data/http-fingerprints.lua'\n",
    ]
    static let expected =
        "foo.lua\tfoo/init.lua\tbar/init.lua\tbar/init.lua\tlpeg-utility.lua\tdata/http-fingerprints.lua\tdata/http-fingerprints.lua\n"

    @Test func validateRunAndTheExportedPackageResolveAsStockLua() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project("App", modules: Self.modules)

        let validate = try FlowpkgProcess.run(["validate", "App"], in: fixture.url)
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
        #expect(!validate.stdout.contains("FP2") && !validate.stdout.contains("FP40"), "\(validate.stdout)")

        let package = try fixture.package(root, to: "App.luapkg")
        let manifest = try PackageReader(contentsOf: package).manifest
        #expect(
            manifest.modules.map { "\($0.name)=\($0.path)" }.sorted() == [
                "bar=modules/bar/init.lua", "data.http-fingerprints=modules/data/http-fingerprints.lua",
                "foo.init=modules/foo/init.lua", "foo=modules/foo.lua", "lpeg-utility=modules/lpeg-utility.lua",
                "main=modules/main.lua",
            ])

        for path in ["App", "App.luapkg"] {
            let result = try FlowpkgProcess.run(["run", path], in: fixture.url)
            #expect(result.status == 0, "\(path): \(result.stderr)")
            #expect(result.stdout == Self.expected, "\(path)")
        }

        // And what stock lua5.4 prints, run in the sources folder with its default searchers' order.
        let lua = Process()
        lua.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        lua.arguments = ["lua5.4", "main.lua"]
        lua.currentDirectoryURL = root.appendingPathComponent("Sources")
        lua.environment = [
            "LUA_PATH_5_4": "./?.lua;./?/init.lua", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin",
        ]
        let output = Pipe()
        lua.standardOutput = output
        try lua.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        lua.waitUntilExit()
        #expect(printed == Self.expected)
    }

    @Test func aShebangLineValidatesAndExports() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project("Tool", modules: ["main.lua": "#!/usr/bin/env lua5.4\nprint('tool')\n"])
        let validate = try FlowpkgProcess.run(["validate", "Tool"], in: fixture.url)
        #expect(validate.status == 0, "\(validate.stdout)")
        #expect(validate.stdout.hasSuffix("0 errors, 0 warnings in 1 module and 0 resources\n"), "\(validate.stdout)")
        let package = try fixture.package(root, to: "Tool.luapkg")
        #expect(try PackageReader(contentsOf: package).moduleData(ModuleName("main")).starts(with: Array("#!".utf8)))
    }
}
