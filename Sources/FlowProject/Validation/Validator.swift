import FlowAnalysis
import FlowPackage
import Foundation

/// Validates a project folder like a compiler: the project file, its modules and resources, each
/// module's content and syntax, then static analysis; every problem is collected and reported once.
public enum Validator {
    /// Validates the project in `projectAt` and returns everything found, sorted.
    public static func validate(projectAt directory: URL, options: ValidationOptions = ValidationOptions()) -> ValidationReport {
        // Workers start compiling each sources folder's files as soon as discovery has walked it,
        // while this thread finishes discovery (names, duplicates, resources).
        let queue = ModuleCheckQueue(maximumSize: options.maximumModuleSize)
        let workers = startWorkers(max(1, options.concurrency ?? ProcessInfo.processInfo.activeProcessorCount), on: queue)
        var queued: [String: Int] = [:]
        var discovery = ProjectLoader.discover(
            in: directory, identifierOverride: options.identifier, versionOverride: options.version,
            foundModuleFiles: { files, projectHasResources in
                // Only FP406 reads a module's string literals, and only about resources.
                let first = queue.add(files.map {
                    ModuleCheckQueue.File(path: $0.path, chunkName: $0.relativePath, collectsStringLiterals: projectHasResources)
                })
                for (offset, file) in files.enumerated() { queued[file.path] = first + offset }
            })
        queue.finish()
        workers.wait()

        // Outcomes of files that turned out to be no module (a bad or duplicate name) are dropped.
        let outcomes = queue.outcomes()
        var analysed: [ProjectRules.Module] = []
        analysed.reserveCapacity(discovery.modules.count)
        for (module, path) in zip(discovery.modules, discovery.modulePaths) {
            guard let index = queued[path], let outcome = outcomes[index] else { continue }
            discovery.diagnostics += outcome.diagnostics
            if let facts = outcome.facts { analysed.append(ProjectRules.Module(name: module.name, file: path, facts: facts)) }
        }
        if let project = discovery.project {
            discovery.diagnostics += StaticAnalysisStep.check(project: project, modules: analysed)
        }
        if options.strict {
            for index in discovery.diagnostics.indices where discovery.diagnostics[index].severity == .warning {
                discovery.diagnostics[index].severity = .error
            }
        }
        return ValidationReport(project: discovery.project, diagnostics: discovery.diagnostics,
                                moduleCount: discovery.modules.count, resourceCount: discovery.resources.count)
    }

    /// Starts `count` threads working on `queue`; the group is left when all of them are done.
    private static func startWorkers(_ count: Int, on queue: ModuleCheckQueue) -> DispatchGroup {
        let done = DispatchGroup()
        for _ in 0..<count {
            done.enter()
            // Own threads rather than GCD's: a roomy stack for the recursive parser of static
            // analysis, whatever nesting Lua let through.
            let thread = Thread {
                queue.work()
                done.leave()
            }
            thread.stackSize = 16 << 20
            thread.start()
        }
        return done
    }
}
