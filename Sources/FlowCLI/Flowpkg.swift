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

    /// Runs the command line: parses it, runs the command, and prints every error the same
    /// way, `error: ` on stderr (ArgumentParser's own usage errors included), with a hint
    /// where a common slip has an obvious fix.
    public static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // `flowpkg help TOPIC` for a topic that is not a command (HelpTopic), `flowpkg help FP304` for a code's entry; an unknown word is a usage error (64).
        if let help = HelpRequest.answer(arguments, commands: commandNames) {
            if help.isError {
                StandardStream.error.write(help.text + "\n")
                exitNow(64)
            }
            StandardStream.output.write(help.text)
            exitNow(EXIT_SUCCESS)
        }
        if let interpreter = LoneScript.interpreterArguments(arguments) { LoneScript.run(interpreter) }
        if let run = Run.parsedAlone(arguments) {
            do {
                let opened = try run.perform()
                // Plain exit: ArgumentParser's `exit(withError:)` would make the runtime look
                // up this command's conformances first, for nothing.
                withExtendedLifetime(opened) { exitNow(EXIT_SUCCESS) }
            } catch {
                finish(with: error, arguments: arguments)
            }
        }
        if let slip = CommandLineSlip.find(in: arguments, commands: commandNames) {
            StandardStream.error.write(slip + "\n")
            exit(withError: ExitCode.validationFailure)
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
