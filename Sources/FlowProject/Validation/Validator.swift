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
        let session = ValidationSession(root: directory, options: options, keepsProjectFindings: false)
        let report = session.report()
        guard session.modulesAnalysed >= largeProject else { return report }
        // A large project's session (every module's facts and findings) is freed on a thread of
        // its own: the report no longer needs it, and freeing it was a part of validation's
        // serial tail on the main thread (Benchmarks/README.md, lint speed).
        let handoff = SessionHandoff(session)
        DetachedThread.start(name: "flowpkg-free") { handoff.release() }
        return report
    }

    /// From this many modules on, validation's serial tail is spread out: the lint rules run
    /// beside the project rules (`StaticAnalysisStep`) and the finished session is freed on a
    /// thread of its own. Below it, a thread's start costs about what it saves.
    static let largeProject = 64

    /// Holds the last reference to a finished session until another thread lets it go.
    private final class SessionHandoff: @unchecked Sendable {
        // Only `release()` touches it, once, on the thread that frees the session.
        private var session: ValidationSession?
        init(_ session: ValidationSession) { self.session = session }
        func release() { session = nil }
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
