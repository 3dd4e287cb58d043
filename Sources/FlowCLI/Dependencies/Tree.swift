import ArgumentParser
import FlowDependencies
import FlowDiagnostics
import FlowProject

extension Flowpkg {
    /// `flowpkg tree`: the dependency graph flowpkg.lock pins.
    struct Tree: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tree",
            abstract: "Print the dependency graph flowpkg.lock pins, with versions and where each comes from.",
            discussion: """
                What flowpkg.json asks for is at the top, what each needs below it, as cargo tree \
                draws it; a rock the host provides is marked so. Reads flowpkg.lock only: nothing \
                is resolved or fetched (run 'flowpkg lock' first).
                """)

        @Argument(help: "The project folder (default: found from here upward).", completion: .directory)
        var directory: String?

        @OptionGroup var format: OutputOptions

        init() {}

        func run() throws {
            let project = ProjectLocation.resolve(directory)
            let read = ProjectFolders().read(folder: project.url.standardizedFileURL.path)
            let lockPath = project.url.standardizedFileURL.path + "/" + Lockfile.fileName
            var outcome = DependencyLocking.Outcome(lock: nil, diagnostics: read.diagnostics)
            if let file = read.file {
                do throws(DependencyError) {
                    outcome.lock = try Lockfile.read(at: lockPath)
                    if outcome.lock == nil {
                        throw DependencyError.lockOutOfDate(
                            reason: "there is no flowpkg.lock: run 'flowpkg lock' first")
                    }
                } catch {
                    outcome.diagnostics.append(DependencyLocking.located(error.diagnostic, file: lockPath))
                }
                if let lock = outcome.lock, format.format != .json {
                    let nodes = DependencyTree.nodes(of: lock)
                    outcome.changes = ["\(file.name) \(file.version)"] + DependencyTree.lines(nodes)
                }
            }
            if format.format == .json, let lock = outcome.lock {
                print(JSONReport.text(DependencyTree.nodes(of: lock)), terminator: "")
                return
            }
            try DependencyReport.finish(outcome, format: format, done: "")
        }
    }
}
