import FlowDiagnostics
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The live loop of `flowpkg dev` (and of `flowpkg run DIR --watch` without `--live`): the live
/// source in this process, and the program in a child started by FlowSupport's `ChildProcess`
/// and connected to it. Everything is driven by events: a save (the server's file watcher), the
/// program's end (the runner's exit callback), ``restart()`` (`r` + Enter) and ``runTests()``
/// (`t` + Enter: the specs run in the program). Each save is
/// checked by the server's incremental `ValidationCache`, the one the session page shows.
///
/// The program is started again after it ended at the next save that compiles, or at
/// ``restart()``, never on its own; ``restart()`` while it runs ends it first (SIGTERM to its
/// process group, SIGKILL after 3 seconds), as nodemon's `rs` does.
package final class DevLoop: Sendable {
    /// What the loop tells its user, in order, from the threads the events come on.
    package enum Event: Sendable {
        /// A line the live source logs (connections, changes, what the program loaded).
        case log(String)
        /// A save does not load as a project: the server keeps serving the last good state.
        case projectFailed([Diagnostic])
        /// The errors `flowpkg validate` reports after a save.
        case invalid([Diagnostic])
        /// The program ended by itself (128 + the signal that ended it).
        case programEnded(status: Int32)
        /// The program is being started again.
        case restarting
        /// The program could not be started.
        case cannotStart(String)
    }

    private struct State {
        var child: ChildProcess?
        /// Set once the program ended by itself and was not started again.
        var endedStatus: Int32?
        /// The running program is being ended so that a new one starts.
        var replacing = false
        var stopping = false
    }

    package let server: LiveServer
    private let program: ChildCommand
    private let report: @Sendable (Event) -> Void
    private let state = Locked(State())

    private init(server: LiveServer, program: ChildCommand, report: @escaping @Sendable (Event) -> Void) {
        self.server = server
        self.program = program
        self.report = report
    }

    /// Starts the live source on the first free port from `options.port` (the next ones
    /// while they are taken; 0 takes any free one); ``startProgram()`` then starts the program
    /// `program(base URL, token)` describes.
    package static func start(
        projectAt root: URL, options: LiveServerOptions, paths: ProjectPaths,
        program: (_ base: String, _ token: String) -> ChildCommand,
        report: @escaping @Sendable (Event) -> Void
    ) throws -> DevLoop {
        let loop = Locked<DevLoop?>(nil)
        let server = try startServer(
            root: root, options: options, paths: paths, report: report,
            onScan: { result in loop.withLock { $0 }?.scanned(result) })
        let made = DevLoop(server: server, program: program(base(of: server), server.options.token), report: report)
        loop.withLock { $0 = made }
        return made
    }

    /// The base URL the live source answers at.
    package var base: String { Self.base(of: server) }

    private static func base(of server: LiveServer) -> String {
        "http://127.0.0.1:\(server.listeningPort ?? 0)"
    }

    /// Starts the program afresh now: at once when it has ended, else once the running one has
    /// been ended.
    package func restart() {
        let running = state.withLock { state -> ChildProcess? in
            guard !state.stopping else { return nil }
            if state.endedStatus == nil, let child = state.child {
                state.replacing = true
                return child
            }
            return nil
        }
        if let running {
            DetachedThread.start { running.terminate() }
        } else if state.withLock({ !$0.stopping }) {
            launch()
        }
    }

    /// Runs the project's spec files in the running program (`t` + Enter), as
    /// `flowpkg test --live` does: its results come back as the program's test lines, in the
    /// terminal and on the session page; why none ran comes as a line.
    package func runTests() {
        let server = self.server, report = self.report
        DetachedThread.start(name: "flowpkg.dev.test") {
            do {
                let request = try LiveTestPlan.request(projectAt: server.project.root)
                server.testRelay.start(request, program: nil) { message in
                    if case .refused(let reason) = message { report(.log("test: \(reason)")) }
                }
            } catch {
                report(.log("test: \(error)"))
            }
        }
    }

    /// Ends the program with `signal` (it has a process group of its own and sees no Ctrl-C of
    /// the terminal's), waits for it, SIGKILL after 3 seconds, and stops the server.
    package func stop(signal: Int32) {
        let child = state.withLock { state -> ChildProcess? in
            state.stopping = true
            return state.child
        }
        if let child {
            child.signal(signal)
            if child.wait(until: Date() + 3) == nil {
                child.signal(SIGKILL)
                child.wait()
            }
        }
        server.stop()
    }

    /// Starts the program; its end is reported, or starts the next one when it was replaced.
    package func startProgram() { launch() }

    private func launch() {
        if state.withLock({ $0.child != nil }) { report(.restarting) }
        do {
            let child = try ChildProcess.start(program) { [self] status in ended(status) }
            state.withLock {
                $0.child = child
                $0.endedStatus = nil
                $0.replacing = false
            }
        } catch {
            state.withLock { $0.endedStatus = 1 }
            report(.cannotStart("\(error)"))
        }
    }

    private func ended(_ status: Int32) {
        let next = state.withLock { state -> Bool? in
            if state.stopping { return nil }
            if state.replacing { return true }
            state.endedStatus = status
            return false
        }
        switch next {
        case true?: launch()
        case false?: report(.programEnded(status: status))
        case nil: return
        }
    }

    /// A save: its diagnostics, and an ended program started again when the save compiles.
    private func scanned(_ result: LiveProject.ScanResult) {
        var compiles = true
        switch result {
        case .unchanged: return
        case .failed(let diagnostics):
            report(.projectFailed(diagnostics))
            compiles = false
        case .changed:
            let errors = server.validation.report(for: server.project.manifest).filter { $0.severity == .error }
            if !errors.isEmpty { report(.invalid(errors)) }
            compiles = !errors.contains { $0.code.area == .moduleText }
        }
        let restart = compiles && state.withLock { $0.endedStatus != nil && !$0.stopping }
        if restart { launch() }
    }

    private static func startServer(
        root: URL, options: LiveServerOptions, paths: ProjectPaths, report: @escaping @Sendable (Event) -> Void,
        onScan: @escaping @Sendable (LiveProject.ScanResult) -> Void
    ) throws -> LiveServer {
        var options = options
        let firstPort = options.port
        while true {
            let server = try LiveServer(
                projectAt: root, options: options, log: { report(.log($0)) },
                // The program prints its own output and errors, as `run` does: the rest
                // (connections, reloads, loads) is what serve would show.
                onEvents: { events in
                    let lines = events.filter { ![.output, .log, .error].contains($0.kind) }.map(\.text)
                    if !lines.isEmpty { report(.log(lines.joined(separator: "\n"))) }
                },
                onScan: onScan, paths: paths)
            do {
                try server.start()
                return server
            } catch let error as LiveServerError
                where error.isPortInUse && options.port != 0 && options.port < firstPort &+ 100
            {
                options.port += 1
            }
        }
    }
}
