import FlowDependencies
import ArgumentParser
import FlowProject

extension Flowpkg {
    /// `flowpkg add`: a rock, a project by path or a .luapkg library, into flowpkg.json and the lock.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a dependency: a rock, a flowpkg project by path, or a .luapkg library.",
            discussion: """
                Edits flowpkg.json's "dependencies" in place (the rest of the file stays as \
                written) and updates flowpkg.lock. A rock is resolved by LuaRocks (luarocks must \
                be installed); --dev adds it to "devDependencies" instead (luassert for flowpkg test), \
                which export and run leave out; without CONSTRAINT the newest version is taken and recorded as \
                ">= MAJOR.MINOR, < MAJOR+1" (">= 0.MINOR, < 0.MINOR+1" for a 0.x version). A --rocks-server \
                given is recorded in "rocksServers". Nothing is changed when it fails. See docs/dependencies.md.
                """)

        @Argument(help: "The rock to add (with --path or --package: nothing).")
        var name: String?

        @Argument(help: "A version constraint as LuaRocks writes it: \"~> 3.1\", \">= 1.13\", \">= 1.0, < 2.0\".")
        var constraint: String?

        @Option(help: "Add the flowpkg project in this folder.", completion: .directory)
        var path: String?

        @Option(help: "Add this .luapkg library.", completion: .file(extensions: ["luapkg"]))
        var package: String?

        @Flag(
            help:
                "Add it to \"devDependencies\": for the project's tests (flowpkg test loads it), never packaged.")
        var dev = false

        @Option(name: .customLong("project"), help: "The project folder (default: found from here upward).")
        var projectDirectory: String?

        @OptionGroup var servers: RocksServerOptions
        @OptionGroup var format: OutputOptions

        init() {}

        func validate() throws {
            let given = [name != nil, path != nil, package != nil].filter { $0 }.count
            guard given == 1 else {
                throw ValidationError("give one of: a rock NAME [CONSTRAINT], --path DIR, --package FILE")
            }
            if constraint != nil, name == nil { throw ValidationError("a constraint goes with a rock NAME") }
        }

        func run() throws {
            let project = ProjectLocation.resolve(projectDirectory)
            let addition: DependencyLocking.Addition
            if let path {
                addition = .path(path)
            } else if let package {
                addition = .package(package)
            } else {
                addition = .rock(name: name!, constraint: constraint)
            }
            let outcome = DependencyLocking.add(
                addition, development: dev, projectAt: project.url, options: servers.dependencyOptions())
            try DependencyReport.finish(outcome, format: format, done: "flowpkg.lock updated")
        }
    }
}
