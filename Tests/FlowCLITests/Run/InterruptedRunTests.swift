import FlowTestSupport
import Foundation
import Testing

/// Ctrl-C on `flowpkg run` of a project folder or a `.luapkg` stops an endless loop as lua5.4
/// does: "interrupted!" with a traceback, the state closed (`<close>` handlers and finalizers
/// run), then status 130. The loop runs in a required module, on the main thread or in a
/// coroutine, where a hook on the main thread alone never fires.
@Suite struct InterruptedRunTests {
    /// A main module with a `<close>` variable and a finalizer (anchored in a local: garbage
    /// would be collected, and finalized, whenever a collection came) that calls `spin.forever()`
    /// (`inCoroutine`: from a coroutine with a `<close>` variable of its own, whose failed
    /// resume the main module ignores). "ready" is printed on the loop's own line: the test's
    /// Ctrl-C can land while `print` or `flush` is still returning (the hook then stops the run
    /// there, as lua5.4's does), and the traceback names the same line either way.
    private static func modules(inCoroutine: Bool) -> [String: String] {
        let call =
            inCoroutine
            ? """
            local co = coroutine.create(function()
              local inner <close> = setmetatable({}, { __close = function() print("coroutine closed") end })
              spin.forever()
            end)
            coroutine.resume(co)
            print("resume returned")
            """
            : """
            spin.forever()
            """
        return [
            "main.lua": """
            local outer <close> = setmetatable({}, { __close = function() print("closed") end })
            local anchored = setmetatable({}, { __gc = function() print("finalized") end })
            local spin = require("spin")
            \(call)

            """,
            "spin.lua": """
            local M = {}
            function M.forever()
              print("ready") io.stdout:flush() while true do end
            end
            return M

            """,
        ]
    }

    /// Runs `arguments`, waits for "ready", sends SIGINT and returns the ended process.
    private static func interrupted(_ arguments: [String], in folder: URL) throws -> BackgroundFlowpkg {
        let run = try BackgroundFlowpkg(arguments, in: folder)
        #expect(run.waitFor(timeout: 60) { stdout, _ in stdout.contains("ready") }, "\(run.stderr)")
        run.process.interrupt()
        // Never a hang: a run that ignored Ctrl-C fails here and is ended by the deinit.
        #expect(run.waitFor(timeout: 60) { _, _ in !run.process.isRunning }, "still running: \(run.stderr)")
        if run.process.isRunning { kill(run.process.processIdentifier, SIGKILL) }
        run.process.waitUntilExit()
        return run
    }

    /// Exit 130 after "ready", the `closed` lines of the `<close>` handlers and the
    /// finalizer's line; "interrupted!" with a traceback through `place`, the loop.
    private static func expectStopped(
        _ run: BackgroundFlowpkg, closed: String, place: String = "spin.lua:3: in function 'spin.forever'"
    ) {
        #expect(run.process.terminationReason == .exit)
        #expect(run.process.terminationStatus == 130, "\(run.stderr)")
        #expect(run.stdout == "ready\n" + closed + "finalized\n", "\(run.stderr)")
        #expect(run.stderr.contains("interrupted!\nstack traceback:"), "\(run.stderr)")
        #expect(run.stderr.contains(place), "\(run.stderr)")
    }

    @Test func ctrlCOnAProjectFolderPrintsInterruptedClosesTheStateAndExits130() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project("app", modules: Self.modules(inCoroutine: false))
        let run = try Self.interrupted(["run", root.path], in: fixture.url)
        Self.expectStopped(run, closed: "closed\n")
        #expect(run.stderr.contains("main.lua:4: in main chunk"), "\(run.stderr)")
    }

    @Test func ctrlCOnAPackagePrintsInterruptedClosesTheStateAndExits130() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project("app", modules: Self.modules(inCoroutine: false))
        let package = try fixture.package(root, to: "App.luapkg")
        let run = try Self.interrupted(["run", package.path], in: fixture.url)
        Self.expectStopped(run, closed: "closed\n")
    }

    /// The loop runs in a coroutine: the interrupt stops it there, closes the coroutine, and
    /// goes on in the main module (whose `coroutine.resume` ignores its results) with both
    /// tracebacks.
    @Test func ctrlCStopsALoopInsideACoroutine() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project("app", modules: Self.modules(inCoroutine: true))
        let package = try fixture.package(root, to: "App.luapkg")
        for target in [root.path, package.path] {
            let run = try Self.interrupted(["run", target], in: fixture.url)
            Self.expectStopped(run, closed: "coroutine closed\nclosed\n")
            #expect(!run.stdout.contains("resume returned"))
            #expect(run.stderr.contains("[C]: in function 'coroutine.resume'"), "\(run.stderr)")
        }
    }

    /// The same coroutine in a lone script (`flowpkg run x.lua`), through `coroutine.wrap`.
    @Test func ctrlCStopsALoopInsideAWrappedCoroutineOfALoneScript() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        try fixture.write(
            fixture.url.appendingPathComponent("loop.lua"),
            """
            local outer <close> = setmetatable({}, { __close = function() print("closed") end })
            local anchored = setmetatable({}, { __gc = function() print("finalized") end })
            local spin = coroutine.wrap(function()
              local inner <close> = setmetatable({}, { __close = function() print("coroutine closed") end })
              print("ready") io.stdout:flush() while true do end
            end)
            spin()

            """)
        let run = try Self.interrupted(["run", "loop.lua"], in: fixture.url)
        Self.expectStopped(run, closed: "coroutine closed\nclosed\n", place: "loop.lua:5: in function <loop.lua:3>")
    }

    /// SIGTERM still ends a run at once with the default action (the shell's 143).
    @Test func sigtermStillEndsARunByTheSignal() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project("app", modules: Self.modules(inCoroutine: false))
        let run = try BackgroundFlowpkg(["run", root.path], in: fixture.url)
        #expect(run.waitFor(timeout: 60) { stdout, _ in stdout.contains("ready") }, "\(run.stderr)")
        run.process.terminate()
        #expect(run.waitFor(timeout: 60) { _, _ in !run.process.isRunning }, "SIGTERM did not end the run")
        if run.process.isRunning { kill(run.process.processIdentifier, SIGKILL) }
        run.process.waitUntilExit()
        #expect(run.process.terminationReason == .uncaughtSignal)
        #expect(run.process.terminationStatus == SIGTERM)
        #expect(!run.stderr.contains("interrupted!"))
    }

    /// The `coroutine.resume` and `coroutine.wrap` that note the running coroutine answer as
    /// stock lua5.4's do, errors and all.
    @Test func notedCoroutineFunctionsAnswerAsLua54s() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        try fixture.write(
            fixture.url.appendingPathComponent("co.lua"),
            """
            print(pcall(coroutine.wrap(function() error("x") end)))
            print(pcall(coroutine.wrap(function() error({}) end)))
            print(coroutine.resume(coroutine.running()))
            print(pcall(coroutine.wrap, 1))
            print(pcall(coroutine.resume, 1))
            local co = coroutine.create(function(a, b) local c = coroutine.yield(a + b) error(c, 0) end)
            print(coroutine.resume(co, 1, 2))
            print(coroutine.resume(co, "three"))
            print(coroutine.resume(co))
            print(coroutine.status(co), coroutine.close(co))
            local gen = coroutine.wrap(function(...) coroutine.yield(...) return "done" end)
            print(gen(1, 2, 3))
            print(gen())
            print(pcall(gen))
            local closing = coroutine.wrap(function()
              local c <close> = setmetatable({}, { __close = function(_, e) print("closing with", e) end })
              error("inner", 0)
            end)
            print(pcall(closing))

            """)
        let flowpkg = try FlowpkgProcess.run(["run", "co.lua"], in: fixture.url)
        let lua = ProgramRun.run(ProgramRun.env, ["lua5.4", "co.lua"], in: fixture.url, environment: [:])
        #expect(lua.status == 0, "\(lua.stderr)")
        #expect(flowpkg.status == 0, "\(flowpkg.stderr)")
        let addresses = /0x[0-9a-f]+/
        #expect(
            flowpkg.stdout.replacing(addresses, with: "ADDRESS") == lua.stdout.replacing(addresses, with: "ADDRESS"))
        #expect(flowpkg.stdout.contains("closing with\tinner"), "\(flowpkg.stdout)")
    }
}
