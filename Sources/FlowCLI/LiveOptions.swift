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

    func validate() throws {
        guard let url else {
            if token != nil || watch { throw ValidationError("--token and --watch go with --live URL") }
            return
        }
        // flowpkg serve speaks plain HTTP, and so does the live client: https would never connect.
        guard let parsed = URL(string: url), parsed.scheme?.lowercased() == "http", parsed.host != nil else {
            throw ValidationError(
                "--live takes an http:// URL (flowpkg serve speaks plain HTTP), such as http://127.0.0.1:7315, not '\(url)'"
            )
        }
        if token == nil { throw ValidationError("--live needs --token: the token `flowpkg serve` printed") }
        if !(connectionTimeout >= 0 && connectionTimeout <= 3600) {
            throw ValidationError("--connection-timeout takes seconds from 0 to 3600")
        }
    }

    /// The development monitor for `flowpkg run`'s launch, if a live source was asked for: the
    /// program's output, errors, reloads and loads go back to it; `prepareSession` sees each
    /// session before it connects.
    func launch(output: LineOutput, prepareSession: @escaping (LiveSession) -> Void = { _ in }) -> LiveLaunch? {
        guard let url, let parsed = URL(string: url), let token else { return nil }
        return LiveLaunch(
            configuration: .init(url: parsed, token: token, connectionTimeout: connectionTimeout),
            log: { line in
                fflush(nil)  // Lua's print writes through C stdio: its lines come first
                output.error(line)
            },
            afterChange: { fflush(nil) }, prepareSession: prepareSession)
    }
}
