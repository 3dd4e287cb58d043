import FlowDependencies
import ArgumentParser
import FlowProject

extension Flowpkg {
    /// `flowpkg remove NAME`.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove a dependency from flowpkg.json and flowpkg.lock.",
            discussion: "Edits flowpkg.json in place; the rest of the file stays as written.")

        @Argument(help: "The dependency to remove, as flowpkg.json names it.")
        var name: String

        @Option(name: .customLong("project"), help: "The project folder (default: found from here upward).")
        var projectDirectory: String?

        @OptionGroup var servers: RocksServerOptions
        @OptionGroup var format: OutputOptions

        init() {}

        func run() throws {
            let project = ProjectLocation.resolve(projectDirectory)
            let outcome = DependencyLocking.remove(name, projectAt: project.url, options: servers.dependencyOptions())
            try DependencyReport.finish(outcome, format: format, done: "flowpkg.lock updated")
        }
    }
}
