import ArgumentParser
import FlowDebugAdapter
import FlowSupport
import Dispatch
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Flowpkg {
    /// `flowpkg dap`: the Debug Adapter Protocol server an editor starts.
    struct Dap: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "dap",
            abstract: "Serve the Debug Adapter Protocol on stdin and stdout, for editors' debuggers.",
            discussion: """
                An editor starts `flowpkg dap` and talks to it over stdin and stdout (DAP, with \
                Content-Length headers). A `launch` request runs a project folder, a .luapkg or \
                a lone .lua file (`program`, with `args`, `cwd` and `stopOnEntry`) as `flowpkg \
                run` does, a spec file (*_spec.lua in a project) as `flowpkg test` does; an `attach` request (`serve`, `token`, `program`) reaches a program \
                following `flowpkg serve` (`run --live`, or a Swift host with the development \
                monitor). Breakpoints (conditions, hit counts, log points), function breakpoints, \
                exception stops (`raised`, `uncaught`) and exceptionInfo, stepping, pause, \
                coroutines as threads (the main thread is 1), variables, evaluation and REPL \
                completions. The program's output comes back as output events; a launched \
                program ends with the session. See docs/editors.md in flowpkg's repository for \
                VS Code, nvim-dap and Emacs dap-mode.
                """
        )

        init() {}

        func run() throws {
            // An editor that goes away must end the adapter, not kill it mid-write.
            signal(SIGPIPE, SIG_IGN)
            let done = DispatchSemaphore(value: 0)
            DetachedThread.start {
                DebugAdapterSession(
                    input: STDIN_FILENO, output: STDOUT_FILENO, flowpkgExecutable: Flowpkg.executablePath,
                    workingDirectory: Terminal.workingDirectory
                ).run()
                done.signal()
            }
            done.wait()
        }
    }
}
