import ArgumentParser
import FlowLanguageServer
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport
import Dispatch
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Flowpkg {
    /// `flowpkg lsp`: the Language Server Protocol server an editor starts.
    struct Lsp: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lsp",
            abstract: "Serve the Language Server Protocol on stdin and stdout, for editors.",
            discussion: """
                An editor starts `flowpkg lsp` and talks to it over stdin and stdout (JSON-RPC \
                with Content-Length headers). It finds the project from the workspace folder \
                (flowpkg.json, searched upward), shows validate's findings as you type, and \
                answers go to definition (require, getResource, globals), completion and hover. \
                See docs/editors.md in flowpkg's repository for Neovim, VS Code, Helix and Sublime Text.
                """
        )

        @Flag(help: "Accepted for editors that pass it; stdio is the only transport.")
        var stdio = false

        @OptionGroup var links: LinkOptions

        init() {}

        func run() throws {
            // A client that goes away must end the server, not kill it mid-write.
            signal(SIGPIPE, SIG_IGN)
            links.apply()
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var ending = LanguageServer.Ending.endOfInput
            // Its own thread: a roomy stack for the recursive Lua parser, as validation's workers have.
            DetachedThread.start(stackSize: 64 << 20) {
                ending = LanguageServer(input: STDIN_FILENO, output: STDOUT_FILENO).run()
                done.signal()
            }
            done.wait()
            if ending == .exit(afterShutdown: false) { throw ExitCode.failure }
        }
    }
}
