import FlowLiveDevelopment
import FlowLiveTestSupport
import FlowLoader
import FlowPackage
import FlowRuntime
import FlowSupport
import FlowTestSupport
import Foundation
import Testing

/// A Swift host with the development monitor, as Samples/HostApp makes one (`PackageLaunch`
/// of its embedded package, `LiveLaunch` in debug builds), in this process: a DAP client attaches
/// through the live server and its token, and stops it on breakpoints.
@Suite(.serialized) struct SwiftHostAttachTests {
    static let main = """
        count = count or 0
        function tick(n)
          count = count + n
          return count
        end
        print("started")
        """

    /// The host: its start module waits for a debugger (up to a minute), then the host calls
    /// `tick(1)` as an app's events would, until `finish()`.
    final class Host: @unchecked Sendable {
        let calls = Awaited(0)
        let running = Awaited<LaunchedPackage?>(nil)
        /// Why the host stopped early, if it did.
        let failure = Locked<String?>(nil)
        private let done = Awaited(false)
        private let finished = Locked(false)

        init(packages: URL, configuration: DevelopmentMonitor.Configuration) {
            let (calls, running, done, finished, failure) = (calls, running, done, finished, failure)
            Thread.detachNewThread {
                defer { done.withLock { $0 = true } }
                do {
                    var launch = try PackageLaunch(package: try PackageIdentifier("com.example.app"), in: [packages])
                    launch.live = LiveLaunch(configuration: configuration, log: { _ in })
                    let launched = try launch.run()
                    running.withLock { $0 = launched }
                    while !finished.withLock({ $0 }) {
                        // Not `return tick(1)`: a tail call leaves tick without a name on the stack.
                        _ = try launched.context.execute("local total = tick(1) return total")
                        calls.withLock { $0 += 1 }
                    }
                } catch {
                    failure.withLock { $0 = "the host failed: \(error)" }
                }
            }
        }

        /// Whether the host made `more` calls past `count` (waiting up to two minutes).
        func goesOn(past count: Int, by more: Int = 100) -> Bool {
            calls.wait(until: { $0 >= count + more ? true : nil }, deadline: Date() + 120) == true
        }

        func finish() {
            finished.withLock { $0 = true }
            done.wait(until: { $0 ? true : nil })
            running.withLock { $0 }?.stop()
        }
    }

    /// A live fixture serving `main`, the host's package holding the same code, and a DAP
    /// client attached to the host (retrying while the host has not yet reached the server).
    ///
    /// All of it runs on the test's own thread, without suspending, and the fixture stops when
    /// the test ends: Swift's global executor is as wide as the machine has cores, and a task
    /// that suspends (an `await blocking`, a `Task` to stop the fixture) waits behind every test
    /// queued meanwhile when it resumes, minutes in a full run on two cores. Swift Testing's own
    /// steps around the test wait the same way, so a full run's "passed after" still measures
    /// that queue, not this test (docs/developing.md, "Durations in a full test run").
    private func withAttachedHost(
        configure: (inout DevelopmentMonitor.Configuration) -> Void,
        _ body: (InProcessDapClient, Host, String, LiveFixture) throws -> Void
    ) async throws {
        // Nothing in the initializer suspends: it runs on this thread.
        let fixture = try await LiveFixture(identifier: "com.example.app")
        defer { fixture.close() }
        try Self.attachHost(to: fixture, configure: configure, body)
    }

    /// The synchronous part of `withAttachedHost`, with `fixture` serving.
    private static func attachHost(
        to fixture: LiveFixture, configure: (inout DevelopmentMonitor.Configuration) -> Void,
        _ body: (InProcessDapClient, Host, String, LiveFixture) throws -> Void
    ) throws {
        try fixture.write(Self.main, to: "Sources/main.lua")
        let packages = try Scratch("host").url
        defer { try? FileManager.default.removeItem(at: packages) }
        try PackageFixtures.write(packages.appendingPathComponent("App.luapkg"), modules: ["main.lua": Self.main])
        let root = fixture.root.standardizedFileURL.path
        let url = fixture.url
        var configuration = DevelopmentMonitor.Configuration(url: url, token: LiveFixture.token, waitForDebugger: 60)
        configure(&configuration)
        let host = Host(packages: packages, configuration: configuration)
        defer { host.finish() }
        let client = InProcessDapClient(workingDirectory: root)
        defer { client.close() }
        try client.succeed("initialize", ["adapterID": "flowpkg"])
        // The host registers its debug channel with the server as it starts.
        let arguments: [String: Any] = ["serve": url.absoluteString, "token": LiveFixture.token, "cwd": root]
        let deadline = Date() + 120
        var attached = try client.request("attach", arguments)
        while attached["success"] as? Bool != true, Date() < deadline {
            try Self.check((attached["message"] as? String ?? "").contains("no program"), "\(attached)")
            Thread.sleep(forTimeInterval: 0.1)
            attached = try client.request("attach", arguments)
        }
        try Self.check(attached["success"] as? Bool == true, "\(attached)")
        _ = try client.event("initialized")
        try body(client, host, root, fixture)
        if let failure = host.failure.withLock({ $0 }) { throw InProcessDapClient.Failure(description: failure) }
    }

    /// Fails the test (from any thread: a thrown error, not an expectation recorded outside
    /// the test's task) unless `condition` holds.
    private static func check(_ condition: Bool, _ message: @autoclosure () -> String = "") throws {
        if !condition { throw InProcessDapClient.Failure(description: "check failed: \(message())") }
    }

    private static func reason(_ reason: String) -> ([String: Any]) -> Bool {
        { ($0["body"] as? [String: Any])?["reason"] as? String == reason }
    }

    private static func verified(_ event: [String: Any]) -> Bool {
        (((event["body"] as? [String: Any])?["breakpoint"] as? [String: Any])?["verified"] as? Bool) == true
    }

    private static func topFrame(_ client: InProcessDapClient) throws -> [String: Any] {
        let frames = try client.succeed("stackTrace", ["threadId": 1])["stackFrames"] as? [[String: Any]] ?? []
        guard let first = frames.first else { throw InProcessDapClient.Failure(description: "no frame while stopped") }
        return first
    }

    private static func evaluate(_ client: InProcessDapClient, _ expression: String, frame: [String: Any]) throws
        -> String?
    {
        try client.succeed("evaluate", ["expression": expression, "frameId": frame["id"] as? Int ?? 1])["result"]
            as? String
    }

    @Test func aDebuggerAttachesToASwiftHostThatWaitsForItStopsItAndDetaches() async throws {
        try await withAttachedHost(configure: { _ in }) { client, host, root, _ in
            // Waiting for the debugger: no Lua has run yet.
            try Self.check(host.calls.withLock { $0 } == 0)
            try Self.check(host.running.withLock { $0 } == nil)
            let body = try client.succeed(
                "setBreakpoints", ["source": ["path": root + "/Sources/main.lua"], "breakpoints": [["line": 3]]])
            // No module has loaded yet: verified when main loads.
            let breakpoints = body["breakpoints"] as? [[String: Any]] ?? []
            try Self.check(breakpoints.first?["verified"] as? Bool == false, "\(body)")
            try client.succeed("configurationDone")
            _ = try client.event("breakpoint", where: Self.verified)

            _ = try client.event("stopped", where: Self.reason("breakpoint"))
            let frame = try Self.topFrame(client)
            try Self.check(frame["name"] as? String == "tick", "\(frame)")
            try Self.check(frame["line"] as? Int == 3, "\(frame)")
            try Self.check(
                (frame["source"] as? [String: Any])?["path"] as? String == root + "/Sources/main.lua", "\(frame)")
            try Self.check(try Self.evaluate(client, "n", frame: frame) == "1")
            let callsAtStop = host.calls.withLock { $0 }

            // Disconnected: the host goes on calling into Lua, with no breakpoint left.
            try client.succeed("disconnect", [:])
            try Self.check(host.goesOn(past: callsAtStop), "the host stayed stopped after the debugger left")
        }
    }

    @Test func aLiveReloadKeepsTheBreakpointsOfItsFile() async throws {
        try await withAttachedHost(configure: { _ in }) { client, host, root, fixture in
            try client.succeed(
                "setBreakpoints", ["source": ["path": root + "/Sources/main.lua"], "breakpoints": [["line": 4]]])
            try client.succeed("configurationDone")
            var (_, after) = try client.event("stopped", where: Self.reason("breakpoint"))
            try Self.check(try Self.evaluate(client, "count", frame: try Self.topFrame(client)) == "1")
            // The file changes while the program is stopped: tick now adds a thousand a call.
            let beforeReload = client.eventCount
            try fixture.write(
                Self.main.replacingOccurrences(of: "count + n", with: "count + n * 1000"), to: "Sources/main.lua")
            // The reload comes when the host is next idle: until then the old code may still stop.
            var reloaded = false
            for _ in 0..<500 where !reloaded {
                try client.succeed("continue", ["threadId": 1])
                (_, after) = try client.event("stopped", after: after, where: Self.reason("breakpoint"))
                let frame = try Self.topFrame(client)
                try Self.check(frame["line"] as? Int == 4, "\(frame)")
                reloaded = try Self.evaluate(client, "count >= 1000", frame: frame) == "true"
            }
            try Self.check(reloaded, "the breakpoint never stopped in the reloaded tick")
            // The breakpoint was checked again on the new chunk.
            _ = try client.event("loadedSource", after: beforeReload)
            _ = try client.event("breakpoint", after: beforeReload, where: Self.verified)
            try client.succeed("disconnect", [:])
            try Self.check(host.goesOn(past: host.calls.withLock { $0 }))
        }
    }

    @Test func aStopWhoseDebuggerVanishesRunsOnAtOnce() async throws {
        // The silence timeout is the default ten minutes: only the debugger's going can end the stop.
        try await withAttachedHost(configure: { _ in }) { client, host, root, _ in
            try client.succeed(
                "setBreakpoints", ["source": ["path": root + "/Sources/main.lua"], "breakpoints": [["line": 3]]])
            try client.succeed("configurationDone")
            _ = try client.event("stopped", where: Self.reason("breakpoint"))
            let callsAtStop = host.calls.withLock { $0 }
            // The editor quits without a disconnect: the adapter ends, and its stream through serve.
            client.close()
            try Self.check(host.goesOn(past: callsAtStop), "the host stayed stopped after its debugger went")
        }
    }

    @Test func aStopWhoseDebuggerFallsSilentRunsOnAfterTheTimeout() async throws {
        try await withAttachedHost(configure: { $0.debuggerSilenceTimeout = 1 }) { client, host, root, _ in
            try client.succeed(
                "setBreakpoints", ["source": ["path": root + "/Sources/main.lua"], "breakpoints": [["line": 3]]])
            try client.succeed("configurationDone")
            _ = try client.event("stopped", where: Self.reason("breakpoint"))
            let callsAtStop = host.calls.withLock { $0 }
            // The debugger says nothing more (its editor hung): the program runs on without it.
            try Self.check(host.goesOn(past: callsAtStop), "the host stayed stopped")
        }
    }
}
