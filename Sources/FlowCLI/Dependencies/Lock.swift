import FlowDependencies
import ArgumentParser
import FlowProject

extension Flowpkg {
    /// `flowpkg lock`: resolve what flowpkg.json asks for, keeping what is locked.
    struct Lock: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lock",
            abstract: "Resolve the dependencies and write flowpkg.lock, upgrading nothing already locked.",
            discussion: """
                flowpkg.lock pins every dependency's version and every file's SHA-256. A rock \
                already locked keeps its version while it still meets its constraint; use \
                'flowpkg update' to move. Commit flowpkg.lock.
                """)

        @Argument(help: "The project folder (default: found from here upward).", completion: .directory)
        var directory: String?

        @OptionGroup var servers: RocksServerOptions
        @OptionGroup var format: OutputOptions

        init() {}

        func run() throws {
            let project = ProjectLocation.resolve(directory)
            let outcome = DependencyLocking.lock(projectAt: project.url, options: servers.dependencyOptions())
            try DependencyReport.finish(outcome, format: format, done: "flowpkg.lock is up to date")
        }
    }
}
