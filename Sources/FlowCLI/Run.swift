import ArgumentParser
import FlowLoader
import FlowProject
import FlowPackage
import FlowRuntime
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

extension Flowpkg {
    /// `flowpkg run`: hosts a Lua context over a package or a project folder, as an app would.
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run",
            abstract: "Run a package's or a project's start module in a Lua 5.4 context.",
            discussion: """
                PATH is a .luapkg file, a project folder (holding flowpkg.json), or, with \
                --identifier, a folder of packages to pick from. Modules and resources come only \
                from there: require never reads the file system (a package.path the program sets \
                reaches the project's or package's own module files only). Lua's print goes to stdout. \
                A Lua error exits 1 with its message and traceback; a missing, corrupt or \
                mismatched package exits 1 before any Lua runs; each module is checked against \
                its SHA-256 when first loaded (--verify-all: every entry before any Lua runs). \
                Arguments after -- reach Lua in the global table arg and as the start module's \
                ..., as with the lua interpreter (arg[0] is the start module's file, PATH/Sources/main.lua \
                or PATH/modules/main.lua, arg[-1] the flowpkg binary). A \
                lone FILE.lua runs as lua5.4 FILE.lua ARGS would (no -- needed; require then \
                uses LUA_PATH, as lua5.4's does), and so does flowpkg with lua5.4's own options \
                (flowpkg -e STAT FILE.lua, flowpkg -v). C modules listed in \
                externalModules load from LUA_CPATH_5_4, LUA_CPATH or Lua's default C path, \
                never with --sandbox. Without PATH, the project is the first folder holding \
                flowpkg.json from here upward. Ctrl-C stops the program as lua5.4 does \
                ("interrupted!" and a traceback, <close> handlers and finalizers run) and exits \
                130. With --watch, Ctrl-C ends the program at once with status 130, and a live source that refuses it (a wrong token, another identifier) ends \
                it with status 1.

                EXAMPLES:
                  flowpkg run MyApp.luapkg
                  flowpkg run . --trace
                  flowpkg run MyApp.luapkg -- --verbose input.txt
                  flowpkg run script.lua a b
                """
        )

        @Argument(
            help: "A .luapkg file or a project folder (default: the project found from here upward).",
            completion: .file(extensions: ["luapkg"]))
        var path: String?

        @Option(help: "The package identifier the host expects; anything else is refused.")
        var identifier: String?

        @Flag(
            help:
                "Run in the default sandbox: no io, debug, dofile, loadfile, package.loadlib, binary load; os only time, clock and date."
        )
        var sandbox = false

        @Flag(help: "Print to stderr which source served each module and resource, as each one loads.")
        var trace = false

        @Flag(
            help:
                "Check every module and resource of the package against its SHA-256 before any Lua runs (by default each is checked when first loaded)."
        )
        var verifyAll = false

        @OptionGroup var links: LinkOptions

        @OptionGroup(title: "Live development")
        var live: LiveOptions

        @OptionGroup(title: "Updates")
        var updates: UpdateOptions

        @Argument(parsing: .postTerminator, help: "Arguments for the Lua program, after --: arg[1], arg[2], …")
        var arguments: [String] = []

        init() {}

        func validate() throws {
            if let identifier, let problem = PackageIdentifier.problem(in: identifier) {
                throw ValidationError("'\(identifier)' is not a valid package identifier: \(problem)")
            }
        }

        func run() throws { try perform() }

        /// Runs the program; returns what it opened, for `Flowpkg.main` to hold until it exits.
        @discardableResult
        func perform() throws -> RunTarget {
            links.apply()
            ParentWatch.startIfAsked()
            if live.watch && live.url == nil { try watchWithoutLive() }
            return try RunRequest(
                path: path, identifier: identifier, sandbox: sandbox, trace: trace, verifyAll: verifyAll,
                live: live, updates: updates, arguments: arguments
            ).perform()
        }

        /// `run`'s command line parsed by ArgumentParser as this command alone, without the
        /// root's tree of every command (a third of a `flowpkg run` start-up in the profile
        /// when the root parsed it); nil for anything that is not a plain run (help, a usage
        /// error), which the root's parse then reads with its own messages.
        static func parsedAlone(_ arguments: [String]) -> Run? {
            guard arguments.first == "run" else { return nil }
            return try? parse(Array(arguments.dropFirst()))
        }

        /// `run DIR --watch` with no `--live`: `flowpkg dev`'s loop without the page.
        private func watchWithoutLive() throws -> Never {
            let (url, _) = Self.resolvePath(path, identifier: nil)
            guard FileManager.default.fileExists(atPath: url.appendingPathComponent("flowpkg.json").path) else {
                Self.standardError(
                    "error: --watch without --live follows a project folder (holding flowpkg.json), "
                        + "not '\(path ?? ".")': give a project, or add --live URL (the token in FLOWPKG_LIVE_TOKEN)\n")
                throw ExitCode.validationFailure
            }
            if identifier != nil || updates.feed != nil {
                Self.standardError("error: --watch without --live takes no --identifier or update options\n")
                throw ExitCode.validationFailure
            }
            var extra: [String] = []
            if sandbox { extra.append("--sandbox") }
            if trace { extra.append("--trace") }
            if verifyAll { extra.append("--verify-all") }
            if !arguments.isEmpty { extra += ["--"] + arguments }
            try DevTerminal(
                directory: path ?? url.path, showsPage: false, firstPort: 0, poll: false,
                session: try SessionOptions.parse([]),
                runArguments: extra
            ).run()
        }

        /// PATH as given; without one, the current folder when it is a project or a folder of
        /// packages (with --identifier, or holding any), else the nearest project upward.
        static func resolvePath(
            _ given: String?, identifier: PackageIdentifier?,
            workingDirectory: String = Terminal.workingDirectory
        ) -> (URL, String) {
            if let given { return (URL(fileURLWithPath: given), given) }
            let here = URL(fileURLWithPath: workingDirectory)
            let hasProject = FileManager.default.fileExists(atPath: here.appendingPathComponent("flowpkg.json").path)
            if hasProject || identifier != nil || !PackageLocator.candidates(in: [here]).isEmpty { return (here, ".") }
            let location = ProjectLocation.resolve(nil, workingDirectory: workingDirectory)
            guard let above = location.above else { return (here, ".") }
            return (location.url, PathText.relative(above, from: workingDirectory))
        }

        static func standardError(_ text: String) {
            StandardStream.error.write(text)
        }
    }
}
