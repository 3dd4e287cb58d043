import FlowDependencies
import ArgumentParser
import FlowProject

extension Flowpkg {
    /// `flowpkg vendor`: the locked files into vendor/, for teams that commit them.
    struct Vendor: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "vendor",
            abstract: "Copy every locked dependency file into vendor/NAME/, checked against flowpkg.lock.",
            discussion: """
                With vendor/ committed, 'export --locked --offline' needs neither the cache, \
                LuaRocks nor a network. Path dependencies stay where they are.
                """)

        @Argument(help: "The project folder (default: found from here upward).", completion: .directory)
        var directory: String?

        @OptionGroup var format: OutputOptions

        init() {}

        func run() throws {
            let project = ProjectLocation.resolve(directory)
            let outcome = DependencyLocking.vendor(projectAt: project.url, options: DependencyOptions())
            try DependencyReport.finish(outcome, format: format, done: "vendor/ written")
        }
    }
}
