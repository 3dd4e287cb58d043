import ArgumentParser
import FlowDependencies
import FlowProject

extension Flowpkg {
    /// `flowpkg outdated`: the locked rocks that have newer versions on the rocks servers.
    struct Outdated: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "outdated",
            abstract: "List the locked rocks the rocks servers have newer versions of.",
            discussion: """
                Asks the servers (flowpkg.json's rocksServers, or --rocks-server) through \
                LuaRocks for every rock flowpkg.lock pins; changes nothing. 'flowpkg update NAME' \
                moves a rock within its constraint; a newer release line needs 'flowpkg add NAME \
                CONSTRAINT'.
                """)

        @Argument(help: "The project folder (default: found from here upward).", completion: .directory)
        var directory: String?

        @OptionGroup var servers: RocksServerOptions
        @OptionGroup var format: OutputOptions

        init() {}

        func run() throws {
            let project = ProjectLocation.resolve(directory)
            let (rocks, diagnostics) = DependencyLocking.outdated(
                projectAt: project.url, options: servers.dependencyOptions())
            if format.format == .json, diagnostics.isEmpty {
                print(JSONReport.text(rocks), terminator: "")
                return
            }
            let lines = rocks.map { rock in
                "\(rock.name) \(rock.locked) -> \(rock.newest)"
                    + (rock.requested.map { $0.isEmpty ? "" : " (flowpkg.json asks for '\($0)')" }
                        ?? " (needed by another)")
            }
            let outcome = DependencyLocking.Outcome(
                lock: diagnostics.isEmpty ? Lockfile() : nil, diagnostics: diagnostics, changes: lines)
            try DependencyReport.finish(
                outcome, format: format, done: rocks.isEmpty ? "every locked rock is the newest its servers have" : "")
        }
    }
}
