import FlowAnalysis
import FlowPackage
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport
import Dispatch

/// Validates a project folder like a compiler: the project file, its modules and resources, each
/// module's content and syntax, then static analysis; every problem is collected and reported once.
public enum Validator {
    /// Validates the project in `projectAt` and returns everything found, sorted.
    public static func validate(projectAt directory: URL, options: ValidationOptions = ValidationOptions())
        -> ValidationReport
    {
        // Discovery first (the project file, names, duplicates, resources), then every module's
        // content and syntax on worker threads: discovery hands over its model and is done.
        var discovery = ProjectLoader.discover(
            in: directory, identifierOverride: options.identifier, versionOverride: options.version,
            allowsOutsideLinks: options.allowsOutsideLinks, dependencyOptions: options.dependencies)
        let queue = ModuleCheckQueue(maximumSize: options.maximumModuleSize)
        // Only FP406 reads a module's string literals, and only about resources.
        let collectsStringLiterals = !discovery.resources.isEmpty
        queue.add(
            zip(discovery.modules, discovery.modulePaths).map { module, path in
                ModuleCheckQueue.File(
                    path: path, chunkName: module.relativePath, collectsStringLiterals: collectsStringLiterals)
            }
                // Scripts are compiled and analysed as modules are, after them.
                + discovery.scripts.map { script in
                    ModuleCheckQueue.File(
                        path: script.file.path, chunkName: script.relativePath,
                        collectsStringLiterals: collectsStringLiterals)
                })
        queue.finish()
        let workers = startWorkers(
            max(1, options.concurrency ?? ProcessInfo.processInfo.activeProcessorCount), on: queue)
        workers.wait()

        let outcomes = queue.outcomes()
        var analysed: [ProjectRules.Module] = []
        analysed.reserveCapacity(discovery.modules.count)
        var unanalysed: [[UInt8]] = []
        // Syntax errors wait for the project-wide step when there is a project to grade them by.
        var uncompiled: [ProjectRules.UncompiledModule] = []
        let grades = discovery.project != nil
        for (index, (module, path)) in zip(discovery.modules, discovery.modulePaths).enumerated() {
            guard let outcome = outcomes[index] else { continue }
            discovery.diagnostics += StaticAnalysisStep.separateSyntaxError(
                outcome.diagnostics, of: grades ? module.name : nil, into: &uncompiled)
            if let facts = outcome.facts {
                analysed.append(ProjectRules.Module(name: module.name, file: path, facts: facts))
            }
            if let source = outcome.unanalysedSource { unanalysed.append(source) }
        }
        for (index, script) in discovery.scripts.enumerated() {
            guard let outcome = outcomes[discovery.modules.count + index] else { continue }
            discovery.diagnostics += StaticAnalysisStep.separateSyntaxError(
                outcome.diagnostics, of: grades ? script.analysisName : nil, into: &uncompiled)
            if let facts = outcome.facts, let name = script.analysisName {
                analysed.append(ProjectRules.Module(name: name, file: script.file.path, facts: facts))
            }
            if let source = outcome.unanalysedSource { unanalysed.append(source) }
        }
        if let project = discovery.project {
            discovery.diagnostics += StaticAnalysisStep.check(
                project: project, modules: analysed, unanalysedSources: unanalysed, uncompiled: uncompiled)
            discovery.diagnostics = Suppressions.apply(
                discovery.diagnostics, root: project.root.path,
                ignore: project.projectFile.ignore)
            discovery.diagnostics = DependencyFindings.withoutLint(discovery.diagnostics, of: discovery.modules)
        }
        if options.strict {
            for index in discovery.diagnostics.indices where discovery.diagnostics[index].severity == .warning {
                discovery.diagnostics[index].severity = .error
            }
        }
        return ValidationReport(
            project: discovery.project, diagnostics: discovery.diagnostics,
            moduleCount: discovery.modules.count, resourceCount: discovery.resources.count)
    }

    /// Starts `count` threads working on `queue`; the group is left when all of them are done.
    static func startWorkers(_ count: Int, on queue: ModuleCheckQueue) -> DispatchGroup {
        let done = DispatchGroup()
        for _ in 0..<count {
            done.enter()
            // Own threads rather than GCD's: a roomy stack for the recursive parser of static
            // analysis, whatever nesting Lua let through.
            DetachedThread.start(stackSize: 16 << 20) {
                queue.work()
                done.leave()
            }
        }
        return done
    }
}
