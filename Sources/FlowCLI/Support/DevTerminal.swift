import ArgumentParser
import FlowDiagnostics
import FlowLiveServer
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

/// `flowpkg dev` (and `flowpkg run DIR --watch` without `--live`) on the terminal: FlowLiveServer's
/// `DevLoop` started with the program `flowpkg run DIR --live URL --watch` (the token in its
/// environment, `FLOWPKG_LIVE_TOKEN`), its events printed, `r` + Enter passed on as a restart,
/// `t` + Enter as a test run in the program, and Ctrl-C (or SIGTERM) ending both with 128 + the signal.
struct DevTerminal {
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
        let renderer = DiagnosticRenderer(
            format: .text, useColor: Terminal.supportsColor(fileDescriptor: STDERR_FILENO),
            workingDirectory: workingDirectory, projectAbove: location.above.map { _ in root.path })
        let readsKeys = isatty(STDIN_FILENO) == 1
        var options = LiveServerOptions(
            host: "127.0.0.1", port: firstPort, token: LiveServerOptions.generateToken(), forcePolling: poll,
            logsRequests: session.verbose)
        options.editor = session.editorLinks
        let shown = directory ?? PathText.relative(root.path, from: workingDirectory)
        let loop: DevLoop
        do {
            loop = try DevLoop.start(
                projectAt: root, options: options,
                paths: ProjectPaths(root: root, workingDirectory: workingDirectory),
                program: { base, token in
                    // The token goes in the environment: a command line is readable by every
                    // local user. The program ends when dev is gone, even killed (`ParentWatch`).
                    var command = ChildCommand(
                        Flowpkg.executablePath, ["run", shown, "--live", base, "--watch"] + runArguments,
                        environment: [ParentWatch.variable: "\(getpid())", LiveOptions.sourceValidatesVariable: "1"],
                        secrets: [LiveOptions.tokenVariable: token], lifetime: .bound(forwardsSignals: false))
                    command.lifeline = true
                    return command
                },
                report: { Self.show($0, output: output, renderer: renderer, readsKeys: readsKeys) })
        } catch {
            output.error("error: \(error)")
            throw ExitCode.failure
        }
        if showsPage {
            let manifest = loop.server.project.manifest
            output.write("Serving \(manifest.name) (\(manifest.identifier)) at \(loop.base)")
            output.write("Session page: \(loop.server.sessionPageURL(base: loop.base))")
        }
        loop.startProgram()
        if readsKeys { Self.readKeys(restart: loop.restart, test: loop.runTests) }
        let signalNumber = Interrupt.wait(orWoken: DispatchSemaphore(value: 0)) ?? SIGTERM
        loop.stop(signal: signalNumber)
        if showsPage { output.write("Stopped.") }
        throw ExitCode(128 + signalNumber)
    }

    private static func show(_ event: DevLoop.Event, output: LineOutput, renderer: DiagnosticRenderer, readsKeys: Bool)
    {
        switch event {
        case .log(let line): output.write(line)
        case .projectFailed(let diagnostics):
            output.error(diagnostics.map(renderer.text).joined(separator: "\n"))
        case .invalid(let errors):
            output.error(
                errors.map(renderer.text).joined(separator: "\n")
                    + "\na module that does not load keeps its last good code in the program until these are fixed")
        case .programEnded(let status):
            let how = status > 128 ? "was ended by signal \(status - 128)" : "ended with status \(status)"
            output.error(
                "the program \(how); it starts again at the next save" + (readsKeys ? ", or now with r and Enter" : ""))
        case .restarting: output.error("starting the program again")
        case .cannotStart(let reason): output.error("error: \(reason)")
        }
    }

    /// `r` + Enter starts the program afresh, whether it runs or has ended; `t` + Enter runs
    /// the project's specs in the running program (`flowpkg test --live`'s run).
    private static func readKeys(restart: @escaping @Sendable () -> Void, test: @escaping @Sendable () -> Void) {
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
                if word == "r" { restart() }
                if word == "t" { test() }
            }
        }
    }
}
