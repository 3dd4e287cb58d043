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

/// What `flowpkg run` was asked to do, as ArgumentParser read it (`Flowpkg.Run`).
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
        let debugger = Locked<DebugLaunch?>(nil)
        defer { debugger.withLock { $0 }?.finish() }
        reportAndTrace(&launch, target: target, debugger: debugger)
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
