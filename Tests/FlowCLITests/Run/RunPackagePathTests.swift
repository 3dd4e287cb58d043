import FlowTestSupport
import Foundation
import Testing

/// A program that finds its own files from `arg[0]` and adds their folder to `package.path`
/// (Penlight's `app.require_here`, the `arg[0]:match(...)` idiom): under `flowpkg run`,
/// `arg[0]` is the start module's file, as lua5.4 names the script it runs, and `require`
/// follows `package.path` into the project's or the package's own module files, as lua5.4
/// follows it into the folder. No other file is read.
@Suite struct RunPackagePathTests {
    static let main = """
        local folder = arg[0]:match("^(.*)/[^/]*$")
        package.path = folder .. "/lib/?.lua;" .. folder .. "/../../elsewhere/?.lua;" .. package.path
        local helper = require "helper"
        print(helper.word, package.loaded.helper == helper, package.loaded["lib.helper"])
        if ... == "outside" then print(pcall(require, "outside")) end

        """

    @Test func packagePathReachesTheProjectsOwnModuleFiles() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project(
            "App", modules: ["main.lua": Self.main, "lib/helper.lua": "return { word = 'found ' .. select(2, ...) }\n"])
        let package = try fixture.package(root, to: "App.luapkg")

        let stock = ProgramRun.run(
            ProgramRun.env, ["lua5.4", "App/Sources/main.lua"], in: fixture.url, environment: ["LUA_PATH": ""])
        #expect(stock.status == 0, "\(stock.stderr)")
        #expect(stock.stdout == "found App/Sources/lib/helper.lua\ttrue\tnil\n")
        let folder = try FlowpkgProcess.run(["run", "App"], in: fixture.url)
        #expect(folder.status == 0, "\(folder.stderr)")
        #expect(folder.stdout == stock.stdout)
        let packaged = try FlowpkgProcess.run(["run", package.lastPathComponent], in: fixture.url)
        #expect(packaged.status == 0, "\(packaged.stderr)")
        #expect(packaged.stdout == "found App.luapkg/modules/lib/helper.lua\ttrue\tnil\n")
    }

    @Test func aFileOutsideTheProjectIsNeverRead() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        try fixture.project(
            "App", modules: ["main.lua": Self.main, "lib/helper.lua": "return { word = 'found' }\n"])
        try fixture.write(fixture.url.appendingPathComponent("elsewhere/outside.lua"), "print('read outside')\n")
        // Stock Lua reads any file package.path names; flowpkg only the project's.
        let stock = ProgramRun.run(
            ProgramRun.env, ["lua5.4", "App/Sources/main.lua", "outside"], in: fixture.url,
            environment: ["LUA_PATH": ""])
        #expect(stock.stdout.contains("read outside"))
        let folder = try FlowpkgProcess.run(["run", "App", "--", "outside"], in: fixture.url)
        #expect(folder.status == 0, "\(folder.stderr)")
        #expect(!folder.stdout.contains("read outside"))
        #expect(folder.stdout.contains("false\tmodule 'outside' not found:"), "\(folder.stdout)")
        // The message lists what package.path named, as stock Lua's does.
        #expect(folder.stdout.contains("no file 'App/Sources/../../elsewhere/outside.lua'"), "\(folder.stdout)")
    }
}
