import ArgumentParser
import FlowLiveDevelopment
import FlowLoader
import FlowPackage
import FlowProject
import FlowRuntime
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

/// What `flowpkg run` was asked to do, however its command line was read: by ArgumentParser
/// (`Flowpkg.Run`), or by `init?(commonForm:)` for the forms a start-up runs most.
struct RunRequest {
    var path: String?
    var identifier: String?
    var sandbox: Bool
    var trace: Bool
    var verifyAll: Bool
    /// nil when no live development option was given (as with none given to ArgumentParser).
    var live: LiveOptions?
    /// nil when no update option was given.
    var updates: UpdateOptions?
    var arguments: [String]

    init(
        path: String?, identifier: String?, sandbox: Bool, trace: Bool, verifyAll: Bool,
        live: LiveOptions?, updates: UpdateOptions?, arguments: [String]
    ) {
        self.path = path
        self.identifier = identifier
        self.sandbox = sandbox
        self.trace = trace
        self.verifyAll = verifyAll
        self.live = live
        self.updates = updates
        self.arguments = arguments
    }

    /// `run`'s command line read by hand when it uses only `[PATH] [--identifier ID]
    /// [--sandbox] [--trace] [--verify-all] [-- ARG...]`, so that running a package does not
    /// pay for ArgumentParser's reflection over the whole command tree (a third of a start-up
    /// in the profile). Anything else (help, live or update options, a repeated or unknown
    /// option, an invalid identifier, a second path) gives nil, and ArgumentParser reads the
    /// line, with its own messages. `RunFastPathTests` checks both readings agree.
    init?(commonForm arguments: [String]) {
        guard arguments.first == "run" else { return nil }
        var path: String?
        var identifier: String?
        var sandbox = false
        var trace = false
        var verifyAll = false
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "--":
                self.init(
                    path: path, identifier: identifier, sandbox: sandbox, trace: trace, verifyAll: verifyAll,
                    live: nil, updates: nil, arguments: Array(arguments[index...]))
                return
            case "--sandbox" where !sandbox: sandbox = true
            case "--trace" where !trace: trace = true
            case "--verify-all" where !verifyAll: verifyAll = true
            case "--identifier" where identifier == nil && index < arguments.count:
                identifier = arguments[index]
                index += 1
            default:
                if argument.hasPrefix("--identifier="), identifier == nil {
                    identifier = String(argument.dropFirst("--identifier=".count))
                } else if path == nil, !argument.isEmpty, !argument.hasPrefix("-") {
                    path = argument
                } else {
                    return nil
                }
            }
        }
        if let identifier,
            identifier.isEmpty || identifier.hasPrefix("-") || PackageIdentifier.problem(in: identifier) != nil
        {
            return nil
        }
        self.init(
            path: path, identifier: identifier, sandbox: sandbox, trace: trace, verifyAll: verifyAll,
            live: nil, updates: nil, arguments: [])
    }

    /// Opens the package or project, starts what the options ask for, and runs the start module.
    /// Returns what the run opened (the package's reader and buffers) for the caller to hold
    /// until the process exits: freeing it piece by piece (unmapping the manifest's and the
    /// directory's buffers) would only delay the exit.
    @discardableResult
    func perform() throws -> RunTarget {
        let expected = try identifier.map { try PackageIdentifier($0) }
        var (target, shownPath) = try open(expected)

        let updateRun: UpdateRun?
        do {
            updateRun = try updates?.start(&target, log: { Self.standardError($0 + "\n") })
        } catch {
            Self.standardError("error: \(error)\n")
            throw ExitCode.failure
        }
        defer { updateRun?.finish(log: { Self.standardError($0 + "\n") }) }

        var fallback: RunTarget?
        do {
            return try run(target, shownPath: shownPath, updateRun: updateRun, fallback: &fallback)
        } catch  where fallback != nil {
            // The update's start module threw before it was confirmed healthy: the embedded
            // package runs in this same launch.
            return try run(fallback!, shownPath: shownPath, updateRun: nil, fallback: &fallback)
        }
    }

    /// Runs `target`'s start module in a new context. When it throws and an update was
    /// running, `fallback` is set to the embedded package's target before the error is thrown.
    private func run(
        _ target: RunTarget, shownPath: String, updateRun: UpdateRun?, fallback: inout RunTarget?
    ) throws -> RunTarget {
        let lineOutput = LineOutput()
        let reporter = live?.makeReporter(loader: target.loader, output: lineOutput)
        var options = LuaContext.Options(sandbox: sandbox ? .default : nil, externalModules: target.externalModules)
        // With a live session, what Lua writes also goes back to `flowpkg serve`.
        options.output = reporter?.outputHandler
        let context = try LuaContext(
            name: "run", packageIdentifier: target.identifier, loader: target.loader, options: options)
        // arg[0] is the start module's file, as lua5.4 names the script it runs, so a program
        // that finds its own files from arg[0] (Penlight's app.require_here) finds them.
        try Flowpkg.Run.setArgumentTable(
            in: context, path: target.loader.chunkName(ofModule: target.startModule) ?? shownPath, arguments)
        if trace {
            target.loader.observeLoads { item in
                fflush(nil)  // Lua's print writes through C stdio: keep the two in order
                Self.standardError("trace: \(TerminalText.escaped("\(item)"))\n")
            }
        }
        // `flowpkg dap` launched this program: its engine connects back before any module runs.
        let debugger = DebugLaunch.startIfAsked(context: context)
        defer { debugger?.finish() }
        let watch = live?.watch ?? false
        let refused = DispatchSemaphore(value: 0)
        let refusal = Locked<String?>(nil)
        let session = live?.startSession(
            loader: target.loader, primary: target.primarySource,
            context: context, output: lineOutput, reporter: reporter
        ) { session in
            guard watch else { return }
            session.onRefused { reason in
                refusal.withLock { $0 = reason }
                refused.signal()
            }
        }
        defer {
            session?.stop()
            context.terminate()
        }
        // Under a live source a debugger can attach through it (flowpkg dap attach).
        let liveDebugger = reporter.flatMap { live?.startDebugChannel(context: context, program: $0.program) }
        defer { liveDebugger?.stop() }
        if watch, let reason = refusal.withLock({ $0 }) {
            Self.standardError("error: --watch has nothing to watch: \(reason)\n")
            throw ExitCode.failure
        }
        if watch { Interrupt.install(.exitAtOnce) }
        do {
            // The start module gets the arguments as `...`, as `lua script.lua a b` passes them.
            try context.loadModule(target.startModule, arguments: arguments.map { .string($0) })
        } catch {
            fflush(nil)  // Lua's print writes through C stdio
            if let updateRun, let embedded = updateRun.fallBack(after: error, log: { Self.standardError($0 + "\n") }) {
                Self.standardError("update: the update's start module failed:\n\(error)\n")
                reporter?.error("the update's start module failed: \(error)", phase: .start)
                fallback = embedded
                throw ExitCode.failure
            }
            Self.standardError("error: \(error)\n")
            reporter?.error("\(error)", phase: .start)
            throw ExitCode.failure
        }
        fflush(nil)  // Lua's print writes through C stdio
        updateRun?.succeeded()
        guard watch else { return target }
        if let signalNumber = Interrupt.wait(orWoken: refused) {
            // Ctrl-C is how a watch ends: the shell's status for it, and no warning about
            // the connection this closes.
            session?.stop()
            throw ExitCode(128 + signalNumber)
        }
        fflush(nil)
        Self.standardError(
            "error: --watch has nothing to watch: \(refusal.withLock { $0 } ?? "the live source refused")\n")
        throw ExitCode.failure
    }

    /// The package or project to run, and the path as the user gave it (what messages show;
    /// `arg[0]` when no source can name the start module's file).
    private func open(_ expected: PackageIdentifier?) throws -> (RunTarget, String) {
        let (url, shown) = Flowpkg.Run.resolvePath(path, identifier: expected)
        do {
            return (
                try RunTarget.open(
                    url, identifier: expected, verifyAll: verifyAll,
                    workingDirectory: Terminal.workingDirectory), shown
            )
        } catch {
            if case .projectHasErrors(let diagnostics) = error {
                let renderer = DiagnosticRenderer(
                    format: .text, useColor: Terminal.supportsColor(fileDescriptor: STDERR_FILENO),
                    workingDirectory: Terminal.workingDirectory,
                    projectAbove: path == nil && shown != "." ? url.path : nil)
                Self.standardError(
                    diagnostics.filter { $0.severity == .error }.map { renderer.text($0) + "\n" }.joined())
            }
            // A refused package's entry names are the package's: escaped (`TerminalText`).
            Self.standardError("error: \(TerminalText.runError(error))\n")
            throw ExitCode.failure
        }
    }

    static func standardError(_ text: String) {
        Flowpkg.Run.standardError(text)
    }
}
