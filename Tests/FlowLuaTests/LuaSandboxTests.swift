import FlowLua
import FlowTestSupport
import Foundation
import Testing

/// The one bounded evaluator for Lua files a project supplies (issues 43 and 44).
@Suite struct LuaSandboxTests {
    static func failure(_ source: String, name: String = "hostile.rockspec", sandbox: LuaSandbox = LuaSandbox())
        -> String
    {
        do {
            _ = try sandbox.evaluate(Array(source.utf8), name: name)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func aLoopForeverIsStoppedAndTheFileNamed() {
        let message = Self.failure("while true do end", name: "rockspecs/pwn-1.0-1.rockspec")
        #expect(message.hasPrefix("rockspecs/pwn-1.0-1.rockspec: evaluation stopped: it runs too long"), "\(message)")
    }

    @Test func aTableFillingFileIsStoppedAndTheFileNamed() {
        let message = Self.failure("t = {} local i = 0 while true do i = i + 1; t[i] = {i} end", name: ".busted")
        #expect(message.hasPrefix(".busted: evaluation stopped: it needs more than 64 MB of memory"), "\(message)")
    }

    @Test func aPcallCannotCatchTheBudget() {
        let message = Self.failure("while true do pcall(function() while true do end end) end", name: ".luacov")
        #expect(message.hasPrefix(".luacov: evaluation stopped: it runs too long"), "\(message)")
    }

    @Test func aTableThatHoldsItselfManyTimesIsBounded() {
        // Copied out naively, 2^32 tables: the copy runs under the budget too.
        let message = Self.failure("t = {} t[1] = t t[2] = t")
        #expect(message.hasPrefix("hostile.rockspec:"), "\(message)")
        #expect(message.contains("deeper than 32") || message.contains("evaluation stopped"), "\(message)")
    }

    @Test func noIONoOSNoRequire() {
        for (source, word) in [
            ("x = io.open('/etc/passwd')", "io"), ("os.execute('true')", "os"), ("require 'lfs'", "require"),
            ("load('return 1')()", "load"), ("setmetatable({}, {})", "setmetatable"),
        ] {
            let message = Self.failure(source)
            #expect(message.hasPrefix("hostile.rockspec:1:") && message.contains(word), "\(source): \(message)")
        }
    }

    @Test func globalsAndTheReturnedTableComeOutAsValues() throws {
        let result = try LuaSandbox().evaluate(
            Array(
                """
                package = "inspect"
                version = ("3.1.3-0"):gsub("-0", "-1")
                dependencies = { "lua >= 5.1" }
                build = { type = "builtin", modules = { inspect = "inspect.lua" } }
                local helper = function() end
                callback = helper
                return { std = "max" }
                """.utf8), name: "inspect-3.1.3-1.rockspec")
        #expect(result.globals["package"] == "inspect")
        #expect(result.globals["version"] == "3.1.3-1")
        #expect(result.globals["dependencies"] == ["lua >= 5.1"])
        #expect(result.globals["build"] == ["type": "builtin", "modules": ["inspect": "inspect.lua"]])
        #expect(result.globals["callback"] == nil)
        #expect(result.globals["string"] == nil, "read from the base, not set by the file")
        #expect(result.returned == ["std": "max"])
    }

    @Test func autovivifiedTablesAsLuacheckGivesThem() throws {
        let sandbox = LuaSandbox(autovivifiedTables: ["files"], presetTables: ["stds"])
        let result = try sandbox.evaluate(
            Array(
                """
                files["spec"].std = "+busted"
                stds.mine = { globals = { "x" } }
                _G.top = true
                """.utf8), name: ".luacheckrc")
        #expect(result.globals["files"] == ["spec": ["std": "+busted"]])
        #expect(result.globals["stds"] == ["mine": ["globals": ["x"]]])
        #expect(result.globals["top"] == true)
    }

    @Test func aFifoIsNeverWaitedOnAndALargeFileNeverRead() throws {
        let folder = try Scratch("sandbox").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("x.rockspec").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: LuaError.self) { try LuaSandbox().evaluate(fileAt: fifo, name: "x.rockspec") }
        let large = folder.appendingPathComponent("large.rockspec")
        FileManager.default.createFile(atPath: large.path, contents: nil)
        let handle = try FileHandle(forWritingTo: large)
        try handle.truncate(atOffset: 400 << 20)
        try handle.close()
        do {
            _ = try LuaSandbox().evaluate(fileAt: large.path, name: "large.rockspec")
            Issue.record("a 400 MB file was evaluated")
        } catch {
            #expect("\(error)".hasPrefix("large.rockspec: it is larger than 1 MB"), "\(error)")
        }
    }
}
