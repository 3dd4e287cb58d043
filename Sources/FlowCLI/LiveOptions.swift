import ArgumentParser
import FlowLiveDevelopment
import FlowLoader
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

    @Option(help: "The token the live source printed.")
    var token: String?

    @Option(help: "Seconds to wait for the live source at start-up before running the package's code.")
    var connectionTimeout: Double = 2

    @Flag(help: "Keep running after the start module returns, applying live changes until Ctrl-C.")
    var watch = false

    @Option(
        help: ArgumentHelp(
            "Seconds to wait at start-up for a debugger (flowpkg dap, attached through the live source) before running the start module.",
            valueName: "seconds"))
    var waitForDebugger: Double?

    func validate() throws {
        guard let url else {
            if token != nil || watch || waitForDebugger != nil {
                throw ValidationError("--token, --watch and --wait-for-debugger go with --live URL")
            }
            return
        }
        // flowpkg serve speaks plain HTTP, and so does the live client: https would never connect.
        guard let parsed = URL(string: url), parsed.scheme?.lowercased() == "http", parsed.host != nil else {
            throw ValidationError(
                "--live takes an http:// URL (flowpkg serve speaks plain HTTP), such as http://127.0.0.1:7315, not '\(url)'"
            )
        }
        if token == nil { throw ValidationError("--live needs --token: the token `flowpkg serve` printed") }
        if let waitForDebugger, !(waitForDebugger >= 0 && waitForDebugger <= 3600) {
            throw ValidationError("--wait-for-debugger takes seconds from 0 to 3600")
        }
        if !(connectionTimeout >= 0 && connectionTimeout <= 3600) {
            throw ValidationError("--connection-timeout takes seconds from 0 to 3600")
        }
    }

    /// What sends the program's output, errors and loads back to the live source, if one was
    /// asked for: made before the context, whose output it takes.
    func makeReporter(loader: Loader, output: LineOutput) -> LiveReporter? {
        guard let url, let parsed = URL(string: url), let token else { return nil }
        // The package's version and digest, when a package is what runs.
        let package = loader.sources.lazy.compactMap { $0 as? EmbeddedPackageSource }.first?.manifest
        let program = LiveReporter.thisProgram(
            identifier: loader.identifier.rawValue, version: package?.version, digest: package?.digest)
        return LiveReporter(
            url: parsed, token: token, program: program,
            log: { line in
                fflush(nil)
                output.error(line)
            })
    }

    /// Connects the context's loader to the live source, if one was asked for; `prepare` sees
    /// the session before it connects.
    func startSession(
        loader: Loader, primary: SourceKind, context: LuaContext, output: LineOutput,
        reporter: LiveReporter? = nil, prepare: (LiveSession) -> Void = { _ in }
    ) -> LiveSession? {
        guard let url, let parsed = URL(string: url), let token else { return nil }
        return LiveSession.attach(
            to: context, configuration: .init(url: parsed, token: token, connectionTimeout: connectionTimeout),
            primary: primary,
            log: { line in
                fflush(nil)  // Lua's print writes through C stdio: its lines come first
                output.error(line)
            },
            afterChange: { fflush(nil) },
            reporter: reporter, prepare: prepare)
    }
}
