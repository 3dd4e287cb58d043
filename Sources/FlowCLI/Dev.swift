import ArgumentParser
import FlowLiveProtocol
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Flowpkg {
    /// `flowpkg dev`: the whole live loop in one command.
    struct Dev: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "dev",
            abstract: "Run a project and reload it live as you save, with its session page.",
            discussion: """
                Starts the live source (what flowpkg serve runs) on 127.0.0.1, on the first \
                free port from 7315, runs the project's start module in a flowpkg run connected \
                to it, and prints the session page's URL (the token is in it). The program's \
                output comes through as run prints it.

                A save reloads the changed modules and the modules that required them; a \
                changed resource is delivered again. A save that does not validate prints the \
                diagnostics once, and the program keeps its last good code. When the program \
                ends (an error at the top level of its start module, os.exit), dev prints why \
                and starts it again at the next save that compiles; it never restarts on its \
                own. Typing r and Enter starts it afresh at any time, ending a running one \
                first. Typing t and Enter runs the project's specs in the running program, as \
                flowpkg test --live does: each file's results show here and on the page. Ctrl-C \
                stops both, with status 130.

                The terminal shows what serve shows but the request lines (--verbose adds them). \
                flowpkg run DIR --watch is the same loop without the page. The program reads \
                no input: the terminal's is dev's.
                """
        )

        @Argument(
            help: "The project folder, holding flowpkg.json (default: found from here upward).",
            completion: .directory)
        var directory: String?

        @Flag(help: "Re-scan the files every 200 ms instead of using inotify (what macOS always does).")
        var poll = false

        @OptionGroup(title: "Log and session page")
        var session: SessionOptions

        init() {}

        func run() throws {
            try DevTerminal(
                directory: directory, showsPage: true, firstPort: LiveProtocol.defaultPort, poll: poll, session: session
            ).run()
        }
    }
}
