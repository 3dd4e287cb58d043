import ArgumentParser
import FlowLiveDevelopment
import FlowLoader
import FlowProject
import FlowRuntime
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

/// `flowpkg run`'s live development options: without `--live` no socket is ever opened.
struct LiveOptions: ParsableArguments {
    @Option(
        name: .customLong("live"),
        help: ArgumentHelp(
            "The URL of a live source (`flowpkg serve`) to load code from first; the program's output, errors, reloads and loads go back to it.",
            valueName: "url"))
    var url: String?

    @Option(
        help:
            "The token the live source printed. Any local user can read a command line: give it in the environment instead, as FLOWPKG_LIVE_TOKEN (flowpkg dev does)."
    )
    var token: String?

    /// The environment variable that carries the token to a `run --live` (`flowpkg dev` sets it
    /// for its child; a command line is readable by every local user through /proc).
    static let tokenVariable = "FLOWPKG_LIVE_TOKEN"

    /// Set by `flowpkg dev` for its child: dev validates each save and prints its syntax errors,
    /// so the program's log leaves a reload's syntax error out and the terminal shows it once.
    static let sourceValidatesVariable = "FLOWPKG_DEV_VALIDATES"

    /// `--token`, else `FLOWPKG_LIVE_TOKEN`.
    var liveToken: String? {
        token ?? ProcessInfo.processInfo.environment[Self.tokenVariable].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Takes the token out of this process's environment once read, so programs the Lua
    /// program starts (`os.execute`) do not inherit it.
    static func forgetTokenVariable() { unsetenv(tokenVariable) }

    @Option(help: "Seconds to wait for the live source at start-up before running the package's code.")
    var connectionTimeout: Double = 2

    @Flag(
        help:
            "Keep running after the start module returns, applying live changes until Ctrl-C; without --live, serve the project folder to it as flowpkg dev does, without the page."
    )
    var watch = false

    @Option(
        help: ArgumentHelp(
            "Seconds to wait at start-up for a debugger (flowpkg dap, attached through the live source) before running the start module.",
            valueName: "seconds"))
    var waitForDebugger: Double?

    func validate() throws {
        guard let url else {
            if token != nil { throw ValidationError("--token goes with --live URL") }
            if waitForDebugger != nil {
                throw ValidationError(
                    "--wait-for-debugger goes with --live URL: a debugger attaches through the live source")
            }
            return
        }
        // flowpkg serve speaks plain HTTP, and so does the live client: https would never connect.
        guard let parsed = URL(string: url), parsed.scheme?.lowercased() == "http", parsed.host != nil else {
            throw ValidationError(
                "--live takes an http:// URL (flowpkg serve speaks plain HTTP), such as http://127.0.0.1:7315, not '\(url)'"
            )
        }
        if liveToken == nil {
            throw ValidationError(
                "--live needs the token `flowpkg serve` printed: in FLOWPKG_LIVE_TOKEN, or with --token")
        }
        if let waitForDebugger, !(waitForDebugger >= 0 && waitForDebugger <= 3600) {
            throw ValidationError("--wait-for-debugger takes seconds from 0 to 3600")
        }
        if !(connectionTimeout >= 0 && connectionTimeout <= 3600) {
            throw ValidationError("--connection-timeout takes seconds from 0 to 3600")
        }
    }

    /// The development monitor for `flowpkg run`'s launch, if a live source was asked for: the
    /// program's output, errors, reloads and loads go back to it; `prepareSession` sees each
    /// session before it connects.
    func launch(
        output: LineOutput, loader: Loader, prepareSession: @escaping (LiveSession) -> Void = { _ in }
    ) -> LiveLaunch? {
        guard let url, let parsed = URL(string: url), let token = liveToken else { return nil }
        Self.forgetTokenVariable()
        let sourceValidates = getenv(Self.sourceValidatesVariable) != nil
        unsetenv(Self.sourceValidatesVariable)
        // A debugger (flowpkg dap attach) may attach through the live source; with
        // --wait-for-debugger, the start module waits for one.
        var configuration = DevelopmentMonitor.Configuration(
            url: parsed, token: token, connectionTimeout: connectionTimeout, waitForDebugger: waitForDebugger)
        configuration.sourceShowsSyntaxErrors = sourceValidates
        // Running a project folder: Lua's errors name its files as a run without --live does.
        if let folder = loader.sources.lazy.compactMap({ $0 as? ProjectFolderSource }).first,
            let workingDirectory = folder.workingDirectory
        {
            let root = folder.project.root.standardizedFileURL.path
            let prefix = workingDirectory.hasSuffix("/") ? workingDirectory : workingDirectory + "/"
            configuration.projectFolder =
                root + "/" == prefix ? "" : root.hasPrefix(prefix) ? String(root.dropFirst(prefix.count)) : root
        }
        return LiveLaunch(
            configuration: configuration,
            log: { line in
                fflush(nil)  // Lua's print writes through C stdio: its lines come first
                output.error(line)
            },
            afterChange: { fflush(nil) }, prepareSession: prepareSession)
    }
}
