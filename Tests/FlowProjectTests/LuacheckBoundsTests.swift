import FlowLua
import FlowTestSupport
import Foundation
import Testing

@testable import FlowProject

/// A hostile `.luacheckrc` can neither hang nor exhaust validation (issue 38): each reproducer
/// ends in an error naming the bound it passed, which validation reports as FP106 and goes on.
@Suite struct LuacheckBoundsTests {
    static func failure(_ source: String) -> String? {
        do {
            _ = try LuacheckConfig.evaluate(Array(source.utf8), chunkName: ".luacheckrc")
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// One C call the instruction hook cannot interrupt: each did not return before.
    @Test(arguments: [
        ("string.rep('', math.maxinteger)", "string.rep does too much work"),
        ("globals = { ('x'):rep(math.maxinteger, '') }", "string.rep does too much work"),
        ("table.move({}, 1, math.maxinteger - 1, 1, {})", "table.move does too much work"),
        ("string.find(string.rep('a', 3000), string.rep('a*', 20) .. 'b')", "string.find does too much work"),
        ("local s = string.rep('a', 3000); s:match(string.rep('a-', 20) .. 'b')", "string.match does too much work"),
        ("for _ in string.rep('a', 3000):gmatch('(a*)*b') do end", "string.gmatch does too much work"),
        ("string.gsub(string.rep('a', 3000), '.-.-.-.-.-b', '')", "string.gsub does too much work"),
        ("string.find(string.rep('a', 2^20), string.rep('a', 2^19) .. 'b', 1, true)", "string.find does too much work"),
    ])
    func aCCallThatWouldHangStops(source: String, reason: String) {
        let failure = Self.failure(source)
        #expect(failure?.contains(reason) == true, "\(source): \(failure ?? "no error")")
    }

    /// Pure Lua where the hook's error used to land unhooked: xpcall's message handler.
    @Test(arguments: [
        "xpcall(function() while true do end end, function() while true do end end)",
        "while true do xpcall(function() while true do end end, function() while true do end end) end",
        "xpcall(error, function() while true do end end)",
    ])
    func aMessageHandlerRunsUnderTheBudget(source: String) {
        let failure = Self.failure(source)
        #expect(failure?.contains("runs too long") == true, "\(source): \(failure ?? "no error")")
    }

    /// Memory: each passed 2 GiB in seconds before; now the allocator refuses past 64 MB.
    @Test(arguments: [
        "local t = {} for i = 1, 8 do t[i] = string.rep('x', 2^24) .. i end",
        "local s = 'x' while true do s = s .. s end",
        "local s = string.rep('x', 2^20) local t = {} while true do t[#t + 1] = s .. #t end",
        "local t = {1} while true do table.move(t, 1, #t, #t + 1) end",
        "local t = {} while true do pcall(function() t[#t + 1] = {} end) end",
    ])
    func memoryIsCapped(source: String) {
        let failure = Self.failure(source)
        #expect(failure?.contains("more than 64 MB of memory") == true, "\(source): \(failure ?? "no error")")
    }

    @Test func theAllocatorCountsAndRefusesPastTheCap() throws {
        let limits = LuaLimits(memory: 8 << 20, instructions: 100_000_000, seconds: 60)
        let state = try LuaState(limits: limits)
        defer { state.close() }
        #expect(state.memoryInUse > 0)
        #expect(state.memoryInUse < 1 << 20)
        #expect(throws: LuaError.self) {
            try state.run("budget_start() local s = 'x' while true do s = s .. s end", chunkName: "grow")
        }
        #expect(state.exceededLimit == .memory)
        #expect(state.memoryInUse <= limits.memory)
    }

    @Test func instructionsAreCounted() throws {
        let state = try LuaState(limits: LuaLimits(memory: 8 << 20, instructions: 50_000, seconds: 60))
        defer { state.close() }
        #expect(throws: LuaError.self) {
            try state.run("budget_start() local n = 0 while true do n = n + 1 end", chunkName: "spin")
        }
        #expect(state.exceededLimit == .instructions)
        #expect(state.instructionsCounted > 50_000)
        #expect(state.instructionsCounted < 50_000 + 1_000)
    }

    /// The clocks are looked at from the hook: with no time at all, the first look stops it.
    @Test func timeIsBoundedByTheClocks() throws {
        let state = try LuaState(limits: LuaLimits(memory: 8 << 20, instructions: 100_000_000, seconds: 0))
        defer { state.close() }
        #expect(throws: LuaError.self) {
            try state.run("budget_start() while true do end", chunkName: "spin")
        }
        #expect(state.exceededLimit == .time)
    }

    @Test func aConfigurationWithinTheBoundsStillWorks() throws {
        let names = try LuacheckConfig.evaluate(
            Array(
                """
                local words = {}
                for word in ("alpha beta gamma"):gmatch("%a+") do words[#words + 1] = word end
                globals = table.move(words, 1, #words, 1, {})
                read_globals = { (string.rep("x", 3, "-")):gsub("-", "_") }
                local ok = xpcall(function() error("no") end, function(m) return "handled: " .. m end)
                """.utf8), chunkName: ".luacheckrc")
        #expect(names.contains("alpha") && names.contains("gamma"), "\(names)")
        #expect(names.contains("x_x_x"), "\(names)")
    }

    /// A 400 MB file of spaces (sparse, so the test writes nothing) is refused without reading it.
    @Test func aHugeFileIsRefusedUnread() throws {
        let root = try Scratch("rc").url
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent(".luacheckrc")
        FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 400 << 20)
        try handle.close()
        let result = LuacheckConfig.globals(inProject: root)
        #expect(result.names.isEmpty)
        #expect(result.diagnostics.map(\.code.code) == ["FP106"])
        #expect(result.diagnostics.first?.message.contains("larger than 1 MB") == true, "\(result.diagnostics)")
    }

    /// Past a bound, FP106 names it, and the rest of validation goes on.
    @Test func validationReportsFP106AndGoesOn() throws {
        let root = try Scratch("rc").url
        let sources = root.appendingPathComponent("Sources")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try #"{"name": "App", "identifier": "com.example.app", "version": "1.0.0", "startModule": "main"}"#
            .write(to: root.appendingPathComponent("flowpkg.json"), atomically: true, encoding: .utf8)
        try "print(undefinedThing)\n".write(
            to: sources.appendingPathComponent("main.lua"), atomically: true, encoding: .utf8)
        try "string.rep('', math.maxinteger)\n".write(
            to: root.appendingPathComponent(".luacheckrc"), atomically: true, encoding: .utf8)
        let report = Validator.validate(projectAt: root)
        #expect(report.diagnostics.map(\.code.code).sorted() == ["FP106", "FP405"], "\(report.diagnostics)")
    }
}
