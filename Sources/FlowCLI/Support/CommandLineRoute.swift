/// Where flowpkg's command line goes, decided once, before anything runs. ArgumentParser reads
/// every command; the other routes are the few forms it cannot express, each with its reason:
/// - `help WORD` for a topic or a diagnostic code (`HelpRequest`): ArgumentParser's `help`
///   knows only commands, and printed the general help with status 0 for anything else;
/// - lua5.4's own command line (`LoneScript`): a script path where a command would be, `-e`
///   and `-l` run in the order given, and every word after the script left to the script;
/// - a slip ArgumentParser would misread (`CommandLineSlip`): `export --version 1.2` is its
///   `--version` flag, which prints flowpkg's version and exits 0;
/// - `run`, parsed as that command alone (`Run.parsedAlone`): the same parser, without the
///   root's tree of every command, which was a third of a `flowpkg run` start-up.
enum CommandLineRoute {
    /// A help page (status 0) or an unknown help word (a usage error, 64).
    case help(text: String, isError: Bool)
    /// lua5.4's command line.
    case loneScript(LoneScript.Invocation)
    /// `run` and its options, already parsed.
    case run(Flowpkg.Run)
    /// A slip's whole error message (a usage error).
    case slip(String)
    /// Everything else: ArgumentParser from the root.
    case command

    static func route(_ arguments: [String], commands: [String]) -> CommandLineRoute {
        if let help = HelpRequest.answer(arguments, commands: commands) {
            return .help(text: help.text, isError: help.isError)
        }
        if let invocation = LoneScript.interpreterArguments(arguments) { return .loneScript(invocation) }
        if let run = Flowpkg.Run.parsedAlone(arguments) { return .run(run) }
        if let slip = CommandLineSlip.find(in: arguments, commands: commands) { return .slip(slip) }
        return .command
    }
}
