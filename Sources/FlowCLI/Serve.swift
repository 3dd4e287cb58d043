import ArgumentParser
import FlowLiveServer
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Dispatch
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Flowpkg {
    /// `flowpkg serve`: the live development source for debug hosts and `flowpkg run --live`.
    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Serve a project live to debug hosts, pushing every change as it is saved.",
            discussion: """
                Serves the project as it is on disk now: its manifest, its modules and resources \
                by package name, and a stream of changes fed by watching the files. Every request \
                needs the token (Authorization: Bearer TOKEN): --token, else FLOWPKG_LIVE_TOKEN \
                (which keeps it off the command line, where any local user reads it), else one \
                is generated and printed. Listens on 127.0.0.1 unless --host says otherwise; with --host \
                0.0.0.0 (or ::) it prints this machine's network addresses, the URLs a device \
                uses. Without DIR, the project is the first folder holding flowpkg.json from \
                here upward. Stop it with Ctrl-C.

                Programs connected with --live send back their output, errors, reloads and \
                loaded items; serve prints each as it arrives (an error as FILE:LINE: error: \
                …), and --format json prints one JSON object per line instead. The session \
                page, at the printed Session page URL, shows them with the project's \
                diagnostics; its file:line links open your editor (--editor). Files are named \
                relative to the current folder, as validate and run name them. One line per \
                HTTP request only with --verbose. `flowpkg dev` runs serve and the program \
                together.

                Watching: on Linux, inotify reports each save at once. On macOS (and anywhere \
                without inotify, or with --poll) the project's files are re-scanned every \
                200 ms instead (FSEvents and kqueue are not used yet), so a change shows up \
                within about 0.2 s and a large project costs some CPU while serving.
                """
        )

        @Argument(
            help: "The project folder, holding flowpkg.json (default: found from here upward).",
            completion: .directory)
        var directory: String?

        @Option(help: "The address to listen on; 0.0.0.0 lets a device on your network connect.")
        var host = "127.0.0.1"

        @Option(help: "The port to listen on; 0 picks a free one.")
        var port: UInt16 = 7315

        @Option(help: "The token hosts must present; else FLOWPKG_LIVE_TOKEN; generated when neither is set.")
        var token: String?

        /// `--token`, else `FLOWPKG_LIVE_TOKEN` (non-empty), with where it came from.
        private var givenToken: (value: String, source: String)? {
            if let token { return (token, "--token") }
            let variable = LiveOptions.tokenVariable
            guard let value = ProcessInfo.processInfo.environment[variable], !value.isEmpty else { return nil }
            return (value, variable)
        }

        @Flag(help: "Re-scan the files every 200 ms instead of using inotify (what macOS always does).")
        var poll = false

        @Option(help: "How to print what programs send back: text, or json (one object per line).")
        var format: ServeFormat = .text

        @OptionGroup var links: LinkOptions

        @OptionGroup(title: "Log and session page")
        var session: SessionOptions

        init() {}

        func validate() throws {
            if !LiveServerOptions.isAddress(host) {
                throw ValidationError(
                    "--host takes an IP address of this machine, such as 127.0.0.1 or 0.0.0.0, not '\(host)'")
            }
            if let (token, source) = givenToken, token.count < 8 || token.contains(where: { $0.isWhitespace }) {
                throw ValidationError("\(source) must be at least 8 characters with no spaces")
            }
        }

        func run() throws {
            // Ctrl-C ends serve with 130 (SIGTERM 143) from here on, as it ends other commands.
            Interrupt.install(.keepForWait)
            links.apply()
            var options = LiveServerOptions(
                host: host, port: port, token: givenToken?.value ?? LiveServerOptions.generateToken(),
                forcePolling: poll, logsRequests: session.verbose)
            options.editor = session.editorLinks
            // Read once: the editor commands serve starts do not inherit it.
            LiveOptions.forgetTokenVariable()
            let output = LineOutput()
            let format = self.format
            let project = ProjectLocation.resolve(directory)
            let server: LiveServer
            do {
                server = try LiveServer(
                    projectAt: project.url, options: options,
                    log: { line in output.write(format.line(log: line)) },
                    // One write per report: a program printing fast sends thousands at once.
                    onEvents: { events in
                        guard !events.isEmpty else { return }
                        output.write(events.map { format.line($0) }.joined(separator: "\n"))
                    })
            } catch {
                output.error("error: \(error)")
                throw ExitCode.failure
            }
            do {
                try server.start()
            } catch {
                output.error("error: \(error)")
                throw ExitCode.failure
            }
            guard let boundPort = server.listeningPort else { throw ExitCode.failure }
            if !options.isLoopback {
                output.error(
                    "warning: listening on \(host): any machine that can reach this one and has the token can read the project"
                )
            }
            let manifest = server.project.manifest
            var urls = ServeAddresses.urls(host: host, port: boundPort, interfaces: ServeAddresses.machineInterfaces())
            if urls.isEmpty {
                output.error("warning: this machine has no network address but loopback: only it can connect")
                urls = [ServeAddresses.url(host == "0.0.0.0" ? "127.0.0.1" : "::1", boundPort)]
            }
            // Without DIR, run finds the project from here upward just as serve did.
            let shown = directory.map { " " + New.shellQuoted($0) } ?? ""
            // The token in the environment, not on run's command line, where any local user reads it.
            let connect =
                "\(LiveOptions.tokenVariable)=\(New.shellQuoted(options.token)) flowpkg run\(shown) --live \(urls[0]) --watch"
            let page = server.sessionPageURL(base: urls[0])
            if format == .json {
                output.write(
                    format.object([
                        "kind": "serving", "name": manifest.name, "identifier": manifest.identifier, "url": urls[0],
                        "token": options.token, "connect": connect, "page": page,
                    ]))
            } else {
                output.write("Serving \(manifest.name) (\(manifest.identifier)) at \(urls[0])")
                for other in urls.dropFirst() { output.write("Also at \(other)") }
                output.write("Token: \(options.token)")
                output.write("Connect: \(connect)")
                output.write("Session page: \(page)")
            }
            let signalNumber = Interrupt.wait(orWoken: DispatchSemaphore(value: 0)) ?? SIGINT
            server.stop()
            output.write(format == .json ? format.object(["kind": "stopped"]) : "Stopped.")
            throw ExitCode(128 + signalNumber)
        }
    }
}
