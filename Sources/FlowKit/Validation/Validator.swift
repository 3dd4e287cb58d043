import FlowPackage
import Foundation

/// Validates a project folder like a compiler: the project file, its modules and resources, each
/// module's content and syntax, then static analysis; every problem is collected and reported once.
public enum Validator {
    /// Validates the project in `projectAt` and returns everything found, sorted.
    public static func validate(projectAt directory: URL, options: ValidationOptions = ValidationOptions()) -> ValidationReport {
        var discovery = ProjectLoader.discover(in: directory, identifierOverride: options.identifier,
                                               versionOverride: options.version)
        let outcomes = checkContents(of: discovery.modules, options: options)
        var facts: [ModuleName: ModuleFacts] = [:]
        for (module, outcome) in zip(discovery.modules, outcomes) {
            discovery.diagnostics += outcome.diagnostics
            if let moduleFacts = outcome.facts { facts[module.name] = moduleFacts }
        }
        if let project = discovery.project {
            discovery.diagnostics += StaticAnalysisStep.check(project: project, facts: facts)
        }
        if options.strict {
            for index in discovery.diagnostics.indices where discovery.diagnostics[index].severity == .warning {
                discovery.diagnostics[index].severity = .error
            }
        }
        return ValidationReport(project: discovery.project, diagnostics: discovery.diagnostics,
                                moduleCount: discovery.modules.count, resourceCount: discovery.resources.count)
    }

    /// Checks every module's file on a small pool of threads, one Lua state each; results come
    /// back in the order of `modules`.
    static func checkContents(of modules: [ProjectModule], options: ValidationOptions) -> [ModuleContentChecker.Outcome] {
        guard !modules.isEmpty else { return [] }
        let workers = max(1, min(options.concurrency ?? ProcessInfo.processInfo.activeProcessorCount, modules.count))
        let work = CheckWork(modules: modules, maximumSize: options.maximumModuleSize)
        if workers == 1 {
            work.run()
        } else {
            let done = DispatchGroup()
            for _ in 0..<workers {
                done.enter()
                // Own threads rather than GCD's: a roomy stack for the recursive parser of
                // static analysis, whatever nesting Lua let through.
                let thread = Thread {
                    work.run()
                    done.leave()
                }
                thread.stackSize = 16 << 20
                thread.start()
            }
            done.wait()
        }
        return work.outcomes
    }
}

/// The shared queue of modules to check and the slots their outcomes go to.
///
/// Workers take indices under a lock and each index's slot is written by exactly one worker,
/// so the slots need no lock of their own; `outcomes` is read only after every worker finished.
private final class CheckWork: @unchecked Sendable {
    let modules: [ProjectModule]
    let maximumSize: Int
    private let lock = NSLock()
    private var next = 0
    private let slots: UnsafeMutableBufferPointer<ModuleContentChecker.Outcome>

    init(modules: [ProjectModule], maximumSize: Int) {
        self.modules = modules
        self.maximumSize = maximumSize
        slots = .allocate(capacity: modules.count)
        slots.initialize(repeating: ModuleContentChecker.Outcome())
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }

    var outcomes: [ModuleContentChecker.Outcome] { Array(slots) }

    /// Small batches keep the lock quiet without leaving one worker with the big files at the end.
    private func takeBatch() -> Range<Int>? {
        lock.lock()
        defer { lock.unlock() }
        guard next < modules.count else { return nil }
        let start = next
        next = min(modules.count, next + 4)
        return start..<next
    }

    func run() {
        let checker = ModuleContentChecker(maximumSize: maximumSize)
        while let batch = takeBatch() {
            for index in batch { store(checker.check(modules[index]), at: index) }
        }
    }

    private func store(_ outcome: ModuleContentChecker.Outcome, at index: Int) {
        slots[index] = outcome
    }
}
