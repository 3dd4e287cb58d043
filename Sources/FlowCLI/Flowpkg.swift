import ArgumentParser
import FlowPackage
import Foundation

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
            Export.self,
            Inspect.self,
            Verify.self,
            Run.self,
            Serve.self,
            Keygen.self,
            Publish.self,
            Lsp.self,
        ]
    )

    public init() {}

    /// Runs the command line: parses it, runs the command, and prints every error the same
    /// way, `error: ` on stderr (ArgumentParser's own usage errors included), with a hint
    /// where a common slip has an obvious fix.
    public static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // `flowpkg help TOPIC` for a topic that is not a command (HelpTopic).
        if arguments.count == 2, arguments[0] == "help", let topic = HelpTopic(rawValue: arguments[1]) {
            FileHandle.standardOutput.write(Data(topic.text.utf8))
            Foundation.exit(EXIT_SUCCESS)
        }
        if let interpreter = LoneScript.interpreterArguments(arguments) { LoneScript.run(interpreter) }
        if let request = RunRequest(commonForm: arguments) {
            do {
                let opened = try request.perform()
                // Plain exit: ArgumentParser's `exit(withError:)` would make the runtime look
                // up this command's conformances first, for nothing.
                withExtendedLifetime(opened) { Foundation.exit(EXIT_SUCCESS) }
            } catch {
                finish(with: error, arguments: arguments)
            }
        }
        if let slip = CommandLineSlip.find(in: arguments, commands: commandNames) {
            FileHandle.standardError.write(Data((slip + "\n").utf8))
            exit(withError: ExitCode.validationFailure)
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            finish(with: error, arguments: arguments)
        }
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
            FileHandle.standardError.write(Data((text + "\n").utf8))
        }
        exit(withError: code)
    }

    /// Every subcommand's name, for suggestions.
    static var commandNames: [String] {
        configuration.subcommands.map { $0._commandName } + ["help"]
    }
}
