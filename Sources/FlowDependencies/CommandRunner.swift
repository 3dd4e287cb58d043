import FlowSupport

/// What a finished command left: its exit status and everything it wrote.
public struct CommandOutput: Sendable {
    /// The command line as a person would type it, for messages.
    public var commandLine: String
    public var status: Int32
    public var standardOutput: String
    public var standardError: String

    public var succeeded: Bool { status == 0 }
    /// Both streams, for quoting in a message.
    public var combined: String { standardOutput + standardError }
}

/// The runner FlowDependencies had before FlowSupport's `ChildProcess`, kept as a thin front
/// for callers written against it: every run goes through `ChildProcess` (a process group of
/// its own, a deadline, no inherited descriptor). New code calls `ChildProcess` directly.
public enum CommandRunner {
    /// The program `name` on `PATH` (or `name` itself when it holds a `/`), if it is there.
    public static func find(_ name: String, path: String? = nil) -> String? {
        ChildCommand.find(name, path: path)
    }

    /// Runs `executable` with `arguments`, the environment changed by `environment` (a nil value
    /// removes the variable), and waits for it at most `deadline` seconds.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String?] = [:],
        deadline: Double = LuaRocks.defaultTimeout
    ) throws(DependencyError) -> CommandOutput {
        let command = ChildCommand(executable, arguments, environment: environment)
        do {
            let output = try ChildProcess.run(command, deadline: deadline)
            return CommandOutput(
                commandLine: output.commandLine, status: output.status, standardOutput: output.standardOutput,
                standardError: output.standardError)
        } catch {
            throw .commandStopped(command: command.commandLine, reason: "\(error)")
        }
    }
}
