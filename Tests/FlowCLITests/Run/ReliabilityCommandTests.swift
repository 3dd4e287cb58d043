import FlowTestSupport
import FlowUpdates
import Foundation
import Testing

@testable import FlowCLI

/// The low items of issue 38 that a user meets at the command line.
@Suite struct ReliabilityCommandTests {
    @Test func anUnknownHelpTopicIsAUsageError() throws {
        let result = try FlowpkgProcess.run(["help", "nosuchtopic"])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("error: there is no help topic 'nosuchtopic'"), "\(result.stderr)")
        #expect(result.stderr.contains("codes, package, updates, live"))
    }

    @Test func helpOnACodePrintsItsCatalogueEntry() throws {
        let result = try FlowpkgProcess.run(["help", "FP304"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.hasPrefix("FP304  warning  retired: a syntax error is always FP301\n\n"), "\(result.stdout)")
        let lower = try FlowpkgProcess.run(["help", "fp111"])
        #expect(lower.stdout.contains("--allow-outside-links"))
        let unknown = try FlowpkgProcess.run(["help", "FP999"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("no diagnostic code 'FP999'"))
        // Commands still get their own help.
        let command = try FlowpkgProcess.run(["help", "validate"])
        #expect(command.status == 0)
        #expect(command.stdout.contains("--allow-outside-links"))
    }

    @Test func aBlockingUpdateCheckWaitsTenSecondsByDefault() throws {
        #expect(UpdateClient.blockingDeadline <= 10)
        func deadline(_ arguments: [String]) throws -> Double {
            let run = try #require(
                try Flowpkg.parseAsRoot(["run", "App.luapkg", "--trusted-key", "k.pub"] + arguments) as? Flowpkg.Run)
            return run.updates.effectiveDeadline
        }
        #expect(try deadline(["--updates", "http://127.0.0.1:1/feed", "--apply-now"]) == 10)
        #expect(try deadline(["--updates", "http://127.0.0.1:1/feed"]) == 120)
        #expect(try deadline(["--updates", "http://127.0.0.1:1/feed", "--apply-now", "--update-deadline", "3"]) == 3)
    }
}

/// `flowpkg run [--sandbox] [--trace] FILE.lua ARGS`: options before the file are flowpkg's,
/// after it the script's, as with lua5.4 (they failed with "not a .luapkg" before).
@Suite struct LoneScriptOptionsTests {
    static func folder() throws -> URL {
        let folder = try Scratch("lone").url
        try "local m = require 'helper'\nprint(m.x, io == nil, os.getenv == nil, ...)\n".write(
            to: folder.appendingPathComponent("x.lua"), atomically: true, encoding: .utf8)
        try "return { x = 42 }\n".write(
            to: folder.appendingPathComponent("helper.lua"), atomically: true, encoding: .utf8)
        return folder
    }

    @Test func traceNamesEachModuleAndItsFile() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try FlowpkgProcess.run(["run", "--trace", "x.lua", "a", "b"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "42\tfalse\tfalse\ta\tb\n")
        #expect(result.stderr.contains("trace: module helper <- ./helper.lua"), "\(result.stderr)")
    }

    @Test func sandboxTakesIOAndOSAway() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try FlowpkgProcess.run(["run", "--sandbox", "x.lua", "--trace"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        // --trace after the file is the script's argument, not flowpkg's option.
        #expect(result.stdout == "42\ttrue\ttrue\t--trace\n")
        #expect(!result.stderr.contains("trace:"))
        let plain = try FlowpkgProcess.run(["run", "x.lua", "--sandbox"], in: folder)
        #expect(plain.stdout == "42\tfalse\tfalse\t--sandbox\n")
    }
}

/// Ctrl-C on an endless loop stops it as lua5.4 does, "interrupted!" and a traceback, closes
/// the state (`<close>` handlers and finalizers run), then exits 130 (it exited silently).
@Suite struct InterruptedScriptTests {
    @Test func ctrlCPrintsInterruptedClosesTheStateAndExits130() throws {
        let folder = try Scratch("int").url
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
        local t <close> = setmetatable({}, { __close = function() print("closed") end })
        setmetatable({}, { __gc = function() print("finalized") end })
        print("ready")
        io.stdout:flush()
        while true do end

        """.write(to: folder.appendingPathComponent("loop.lua"), atomically: true, encoding: .utf8)
        let script = try BackgroundFlowpkg(["run", "loop.lua"], in: folder)
        #expect(script.waitFor(timeout: 60) { stdout, _ in stdout.contains("ready") })
        script.process.interrupt()
        // Never a hang: a script that ignored Ctrl-C fails here and is ended by the deinit.
        #expect(script.waitFor(timeout: 60) { _, _ in !script.process.isRunning })
        guard !script.process.isRunning else { return }
        script.process.waitUntilExit()
        #expect(script.process.terminationStatus == 130)
        #expect(script.stdout == "ready\nclosed\nfinalized\n")
        #expect(script.stderr.contains(": interrupted!\nstack traceback:"), "\(script.stderr)")
        #expect(script.stderr.contains("loop.lua:5: in main chunk"), "\(script.stderr)")
    }
}
