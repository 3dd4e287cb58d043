import ArgumentParser
import FlowLiveDevelopment
import FlowLoader
import FlowPackage
import FlowProject
import FlowRuntime
import FlowSupport
import FlowUpdates
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

    /// Opens the package or project and launches it as a host would (`PackageLaunch`), with
    /// the updates and the live source the options ask for. Returns what the run opened (the
    /// package's reader and buffers) for the caller to hold until the process exits: freeing
    /// it piece by piece (unmapping the manifest's and the directory's buffers) would only
    /// delay the exit.
    @discardableResult
    func perform() throws -> RunTarget {
        let expected = try identifier.map { try PackageIdentifier($0) }
        let (target, shownPath) = try open(expected)
        guard let primary = target.loader.sources.last else { throw ExitCode.failure }
        let updateLaunch: UpdateLaunch?
        do {
            updateLaunch = try updates?.launch(over: target)
        } catch {
            Self.standardError("error: \(error)\n")
            throw ExitCode.failure
        }
        defer { updateLaunch?.finish(log: { Self.standardError($0 + "\n") }) }

        let watch = live?.watch ?? false
        var options = LuaContext.Options(sandbox: sandbox ? .default : nil)
        // Ctrl-C stops the program as lua5.4 does (a watch ends at once instead: `Interrupt`).
        options.stopsOnInterrupt = !watch
        if !watch { Interrupt.stopsLua() }
        var launch = PackageLaunch(primary: primary, name: "run", options: options)
        launch.startModule = target.startModule
        launch.externalModules = target.externalModules
        launch.arguments = arguments
        launch.argumentTable = .init(interpreter: Flowpkg.executablePath, script: shownPath)
        launch.updates = updateLaunch
        launch.log = { line in
            fflush(nil)  // Lua's print writes through C stdio
            Self.standardError(line + "\n")
        }
        // A project written for an app host says so, instead of "module 'UIKit.UIView' not found".
        let folder = target.loader.sources.lazy.compactMap { $0 as? ProjectFolderSource }.first
        launch.startModuleFailed = { error in
            fflush(nil)  // Lua's print writes through C stdio
            let hostless = folder.flatMap {
                HostlessEnvironment.problem(
                    environment: $0.project.projectFile.environment, root: $0.project.root, error: "\(error)")
            }
            Self.standardError("error: \(hostless ?? "\(error)")\n")
        }
        let debugger = Locked<DebugLaunch?>(nil)
        defer { debugger.withLock { $0 }?.finish() }
        launch.prepare = { [trace] context in
            if trace {
                context.loader.observeLoads { item in
                    fflush(nil)  // Lua's print writes through C stdio: keep the two in order
                    Self.standardError("trace: \(TerminalText.escaped("\(item)"))\n")
                }
            }
            // `flowpkg dap` launched this program: its engine connects back before any module runs.
            // It belongs to its debugger: one that goes away (killed, or its editor closed) ends it,
            // as a hang-up would.
            let started = DebugLaunch.startIfAsked(context: context) {
                Self.standardError("error: the debugger that launched this program has gone\n")
                _exit(128 + SIGHUP)
            }
            if let started { debugger.withLock { $0 = started } }
        }
        let refused = DispatchSemaphore(value: 0)
        let refusal = Locked<String?>(nil)
        let liveLaunch = live?.launch(output: LineOutput(), loader: target.loader) { session in
            guard watch else { return }
            session.onRefused { reason in
                refusal.withLock { $0 = reason }
                refused.signal()
            }
        }
        launch.live = liveLaunch
        if watch {
            launch.willRunStartModule = { _ in
                if let reason = refusal.withLock({ $0 }) {
                    Self.standardError("error: --watch has nothing to watch: \(reason)\n")
                    throw ExitCode.failure
                }
                Interrupt.install(.exitAtOnce)
            }
        }

        let running: LaunchedPackage
        do {
            running = try launch.run()
        } catch PackageLaunchError.startModuleFailed {
            // The context is closed already: its finalizers ran.
            throw LuaInterrupt.happened ? ExitCode(130) : ExitCode.failure
        } catch  where LuaInterrupt.happened {
            Self.standardError("error: \(error)\n")
            throw ExitCode(130)
        }
        var stopped = false
        defer { if !stopped { running.stop() } }
        fflush(nil)  // Lua's print writes through C stdio
        guard watch else {
            // A program that caught Ctrl-C's "interrupted!" still ends with 130, after its
            // finalizers ran.
            running.stop()
            stopped = true
            if LuaInterrupt.happened { throw ExitCode(130) }
            return target
        }
        if let signalNumber = Interrupt.wait(orWoken: refused) {
            // Ctrl-C is how a watch ends: the shell's status for it, and no warning about
            // the connection this closes.
            running.stop()
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
