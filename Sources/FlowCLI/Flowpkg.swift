import ArgumentParser
import FlowPackage
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `flowpkg` command: scaffolds, checks, packages and runs Lua projects.
public struct Flowpkg: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "flowpkg",
        abstract: "Build, check and package Lua apps for native hosts.",
        discussion: """
            A project is a folder with a flowpkg.json, Lua modules under Sources/ and \
            resources under Resources/. Commands that take a project folder look for \
            flowpkg.json from the current folder upward when none is given. See the README \
            for a walk-through, and `flowpkg help TOPIC` for the topics codes, package, \
            updates and live.
            """,
        version: ToolVersion.current,
        subcommands: [
            New.self,
            Init.self,
            Templates.self,
            Validate.self,
            Fmt.self,
            Export.self,
            Inspect.self,
            Verify.self,
            Run.self,
            Serve.self,
            Dev.self,
            Keygen.self,
            Publish.self,
            Lsp.self,
            Dap.self,
            Add.self,
            Remove.self,
            Update.self,
            Lock.self,
            Vendor.self,
            Tree.self,
            Outdated.self,
            Test.self,
        ]
    )

    public init() {}

    /// Runs the command line: routes it (`CommandLineRoute`: ArgumentParser, or one of the
    /// forms it cannot read), runs the command, and prints every error the same way, `error: `
    /// on stderr (ArgumentParser's own usage errors included), with a hint where a common slip
    /// has an obvious fix.
    public static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch CommandLineRoute.route(arguments, commands: commandNames) {
        case .help(let text, isError: true):
            StandardStream.error.write(text + "\n")
            exitNow(64)
        case .help(let text, isError: false):
            StandardStream.output.write(text)
            exitNow(EXIT_SUCCESS)
        case .loneScript(let invocation):
            LoneScript.run(invocation)
        case .run(let run):
            do {
                let opened = try run.perform()
                // Plain exit: ArgumentParser's `exit(withError:)` would make the runtime look
                // up this command's conformances first, for nothing.
                withExtendedLifetime(opened) { exitNow(EXIT_SUCCESS) }
            } catch {
                finish(with: error, arguments: arguments)
            }
        case .slip(let message):
            StandardStream.error.write(message + "\n")
            exit(withError: ExitCode.validationFailure)
        case .command:
            break
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            finish(with: error, arguments: arguments)
        }
        exitIfSignalled()
    }

    /// A SIGINT, SIGTERM or SIGHUP that came while a tool ran (luarocks) was passed to it and
    /// kept, so the command could unwind and remove what it made: flowpkg ends with the status
    /// the signal would have given.
    private static func exitIfSignalled() {
        if let signalNumber = ChildProcessGroups.receivedSignal { exitNow(128 + signalNumber) }
    }

    /// Prints `error`'s message (`error: ` on stderr, or a successful exit's text on stdout)
    /// and exits with its status.
    private static func finish(with error: any Error, arguments: [String]) -> Never {
        let code = exitCode(for: error)
        var text = fullMessage(for: error)
        if code == .success {
            if !text.isEmpty { print(text) }
            exit(withError: code)
        }
        if !text.isEmpty {
            text = CommandLineSlip.lowercasePrefix(text)
            if let hint = CommandLineSlip.hint(for: text, arguments: arguments) { text += "\n" + hint }
            StandardStream.error.write(text + "\n")
        }
        exitIfSignalled()
        exit(withError: code)
    }

    /// Every subcommand's name, for suggestions.
    static var commandNames: [String] {
        configuration.subcommands.map { $0._commandName } + ["help"]
    }
}

/// Ends the process with `status`: C's exit, named apart from ParsableCommand's `exit`.
private func exitNow(_ status: Int32) -> Never {
    #if canImport(Glibc)
        Glibc.exit(status)
    #else
        Darwin.exit(status)
    #endif
}
