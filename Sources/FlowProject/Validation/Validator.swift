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
    /// Validates the project in `projectAt` and returns everything found, sorted: a
    /// `ValidationSession` run once, the same steps `lsp`, `serve` and the session page keep
    /// running as files change (discovery; every module's content and syntax on worker threads;
    /// static analysis; suppressions).
    public static func validate(projectAt directory: URL, options: ValidationOptions = ValidationOptions())
        -> ValidationReport
    {
        ValidationSession(root: directory, options: options).report()
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
