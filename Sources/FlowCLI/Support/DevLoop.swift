import ArgumentParser
import FlowDiagnostics
import FlowLiveProtocol
import FlowLiveServer
import FlowProject
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Dispatch
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The live loop of `flowpkg dev` (and of `flowpkg run DIR --watch` without `--live`): the
/// live source in this process, the program in a child `flowpkg run DIR --live URL --watch`
/// connected to it (the token in its environment, `FLOWPKG_LIVE_TOKEN`; the program in a
/// process group of its own, to which dev passes its signals), started again after it ends at
/// the next save or at `r` + Enter, never on its own.
struct DevLoop {
    /// The project folder as the user gave it (nil: found from here upward).
    var directory: String?
    /// Whether the session page's URL is printed (`dev`), or only the program shows (`run --watch`).
    var showsPage: Bool
    /// The first port tried; the next ones follow while they are taken. 0 takes any free one.
    var firstPort: UInt16
    var poll: Bool
    var session: SessionOptions
    /// What the child `run` gets after `--watch`: `--sandbox`, `--trace`, `-- ARGS`.
    var runArguments: [String] = []

    private struct State {
        var child: ChildProcess?
        /// Set when the program ended and has not been started again.
        var endedStatus: Int32?
        var restartWanted = false
    }

    func run() throws -> Never {
        Interrupt.install(.keepForWait)
        let output = LineOutput()
        let location = ProjectLocation.resolve(directory)
        let root = location.url
        if let problem = HostlessEnvironment.problem(projectAt: root) {
            output.error("error: \(problem)")
            throw ExitCode.failure
        }
        let workingDirectory = Terminal.workingDirectory
        let paths = ProjectPaths(root: root, workingDirectory: workingDirectory)
        let wake = DispatchSemaphore(value: 0)
        let state = Locked(State())
        let renderer = DiagnosticRenderer(
            format: .text, useColor: Terminal.supportsColor(fileDescriptor: STDERR_FILENO),
            workingDirectory: workingDirectory, projectAbove: location.above.map { _ in root.path })
        let server = try startServer(
            root: root, paths: paths, output: output,
            onScan: { result in
                switch result {
                case .unchanged: return
                case .failed(let diagnostics):
                    output.error(diagnostics.map(renderer.text).joined(separator: "\n"))
                case .changed:
                    let errors = Validator.validate(projectAt: root).diagnostics.filter { $0.severity == .error }
                    if !errors.isEmpty {
                        output.error(
                            errors.map(renderer.text).joined(separator: "\n")
                                + "\na module that does not load keeps its last good code in the program until these are fixed"
                        )
                    }
                }
                let restart = state.withLock { state -> Bool in
                    guard state.endedStatus != nil else { return false }
                    state.restartWanted = true
                    return true
                }
                if restart { wake.signal() }
            })
        guard let port = server.listeningPort else { throw ExitCode.failure }
        let base = "http://127.0.0.1:\(port)"
        let manifest = server.project.manifest
        if showsPage {
            output.write("Serving \(manifest.name) (\(manifest.identifier)) at \(base)")
            output.write("Session page: \(server.sessionPageURL(base: base))")
        }
        let shown = directory ?? PathText.relative(root.path, from: workingDirectory)
        // The token goes in the environment: a command line is readable by every local user.
        // The program ends when dev is gone, even killed (`ParentWatch`).
        let command = ChildCommand(
            Flowpkg.executablePath, ["run", shown, "--live", base, "--watch"] + runArguments,
            environment: [ParentWatch.variable: "\(getpid())"],
            secrets: [LiveOptions.tokenVariable: server.options.token], lifetime: .bound(forwardsSignals: false))
        let readsKeys = isatty(STDIN_FILENO) == 1
        if readsKeys { startReadingKeys(state: state, wake: wake) }
        func start() { Self.start(command, state: state, wake: wake, output: output) }
        start()
        var reported: ObjectIdentifier?
        while true {
            if let signalNumber = Interrupt.wait(orWoken: wake) {
                stop(state: state, server: server, signal: signalNumber)
                if showsPage { output.write("Stopped.") }
                throw ExitCode(128 + signalNumber)
            }
            let (child, ended, restart) = state.withLock { ($0.child, $0.endedStatus, $0.restartWanted) }
            if restart {
                if ended == nil { continue }
                output.error("starting the program again")
                start()
            } else if let ended, let child, reported != ObjectIdentifier(child) {
                reported = ObjectIdentifier(child)
                let how = ended > 128 ? "was ended by signal \(ended - 128)" : "ended with status \(ended)"
                output.error(
                    "the program \(how); it starts again at the next save"
                        + (readsKeys ? ", or now with r and Enter" : ""))
            }
        }
    }

    /// The live source on the first free port from `firstPort`.
    private func startServer(
        root: URL, paths: ProjectPaths, output: LineOutput,
        onScan: @escaping @Sendable (LiveProject.ScanResult) -> Void
    ) throws -> LiveServer {
        let token = LiveServerOptions.generateToken()
        var port = firstPort
        while true {
            var options = LiveServerOptions(
                host: "127.0.0.1", port: port, token: token, forcePolling: poll, logsRequests: session.verbose)
            options.editor = session.editorLinks
            let server: LiveServer
            do {
                server = try LiveServer(
                    projectAt: root, options: options, log: { output.write($0) },
                    // The program prints its own output and errors, as `run` does: the rest
                    // (connections, reloads, loads) is what serve would show.
                    onEvents: { events in
                        let lines = events.filter { ![.output, .log, .error].contains($0.kind) }.map(\.text)
                        if !lines.isEmpty { output.write(lines.joined(separator: "\n")) }
                    },
                    onScan: onScan, paths: paths)
            } catch {
                output.error("error: \(error)")
                throw ExitCode.failure
            }
            do {
                try server.start()
                return server
            } catch let error as LiveServerError where error.isPortInUse && port != 0 && port < firstPort &+ 100 {
                port += 1
            } catch {
                output.error("error: \(error)")
                throw ExitCode.failure
            }
        }
    }

    /// `r` + Enter starts an ended program again at once.
    private func startReadingKeys(state: Locked<State>, wake: DispatchSemaphore) {
        DetachedThread.start {
            var line: [UInt8] = []
            var byte: UInt8 = 0
            while true {
                let count = read(STDIN_FILENO, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return }
                guard byte == UInt8(ascii: "\n") else {
                    line.append(byte)
                    continue
                }
                let word = String(decoding: line, as: UTF8.self).trimmingSpaces().lowercased()
                line.removeAll()
                guard word == "r" else { continue }
                let restart = state.withLock { state -> Bool in
                    guard state.endedStatus != nil || state.child == nil else { return false }
                    state.restartWanted = true
                    return true
                }
                if restart { wake.signal() }
            }
        }
    }

    /// Starts the program; its end is recorded and wakes the loop.
    private static func start(
        _ command: ChildCommand, state: Locked<State>, wake: DispatchSemaphore, output: LineOutput
    ) {
        do {
            let child = try ChildProcess.start(command) { status in
                state.withLock { $0.endedStatus = status }
                wake.signal()
            }
            state.withLock {
                $0.child = child
                $0.endedStatus = nil
                $0.restartWanted = false
            }
        } catch {
            output.error("error: \(error)")
            state.withLock { $0.endedStatus = 1 }
        }
    }

    /// Ends the program (in a process group of its own, it sees no Ctrl-C of the terminal's:
    /// dev passes the signal on), waits for it, SIGKILL after 3 seconds, and stops the server.
    private func stop(state: Locked<State>, server: LiveServer, signal: Int32) {
        if let child = state.withLock({ $0.child }) {
            child.signal(signal)
            if child.wait(until: Date() + 3) == nil {
                child.signal(SIGKILL)
                child.wait()
            }
        }
        server.stop()
    }
}
