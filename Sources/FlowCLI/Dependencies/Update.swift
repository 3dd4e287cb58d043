import FlowDependencies
import ArgumentParser
import FlowProject

extension Flowpkg {
    /// `flowpkg update [NAME...]`: newer versions within the constraints.
    struct Update: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "update",
            abstract: "Move dependencies to the newest versions their constraints allow.",
            discussion: """
                Without NAME every rock may move; with names, only those (what they need may \
                move with them). flowpkg.json is not changed; flowpkg.lock is rewritten.
                """)

        @Argument(help: "The dependencies to update (default: all).")
        var names: [String] = []

        @Option(name: .customLong("project"), help: "The project folder (default: found from here upward).")
        var projectDirectory: String?

        @OptionGroup var servers: RocksServerOptions
        @OptionGroup var format: OutputOptions

        init() {}

        func run() throws {
            let project = ProjectLocation.resolve(projectDirectory)
            let outcome = DependencyLocking.lock(
                projectAt: project.url, options: servers.dependencyOptions(),
                upgrade: names.isEmpty ? .all : .only(Set(names)))
            try DependencyReport.finish(outcome, format: format, done: "flowpkg.lock updated")
        }
    }
}
