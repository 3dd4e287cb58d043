import FlowPackage
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Module files waiting to be checked by worker threads.
///
/// Validation adds the project's module files and calls `finish()`; each worker (`work()`)
/// takes one file at a time under the lock and keeps its outcomes to itself, so only taking
/// work is shared. `outcomes()` is read once every worker returned.
final class ModuleCheckQueue: Sendable {
    struct File {
        var path: String
        var chunkName: String
        /// Whether the module's facts list its string literals (see `ReusableModuleAnalyzer`).
        var collectsStringLiterals = true
    }

    /// A checked file: its outcome, and its suppression comments read from the same bytes.
    private struct Done {
        var index: Int
        var outcome: ModuleContentChecker.Outcome
        var comments: Suppressions.Comments?
    }

    private struct State {
        var files: [File] = []
        var next = 0
        var isFinished = false
        var finished: [[Done]] = []
    }

    private let state = Awaited(State())
    private let maximumSize: Int

    private let checksTypes: Bool

    init(maximumSize: Int, checksTypes: Bool = true) {
        self.maximumSize = maximumSize
        self.checksTypes = checksTypes
    }

    /// Adds files to check; returns the index of the first, which its outcome is filed under.
    @discardableResult
    func add(_ newFiles: [File]) -> Int {
        state.withLock { state in
            let first = state.files.count
            state.files += newFiles
            return first
        }
    }

    /// No more files will come: workers return once the queue is empty.
    func finish() {
        state.withLock { $0.isFinished = true }
    }

    /// One file at a time: an uncontended lock costs far less than a module's check, and the
    /// workers then finish within one file of each other.
    private func take() -> (index: Int, file: File)? {
        state.wait { state -> (index: Int, file: File)?? in
            if state.next < state.files.count {
                state.next += 1
                return .some((state.next - 1, state.files[state.next - 1]))
            }
            return state.isFinished ? .some(nil) : nil
        }
    }

    /// Checks files until the queue is finished and empty, with this thread's own checker.
    func work() {
        var done: [Done] = []
        // Created on the first file: a worker that finds nothing to do costs no Lua arena.
        var checker: ModuleContentChecker?
        while let (index, file) = take() {
            let current = checker ?? ModuleContentChecker(maximumSize: maximumSize, checksTypes: checksTypes)
            checker = current
            let outcome = current.check(
                path: file.path, chunkName: file.chunkName, collectsStringLiterals: file.collectsStringLiterals)
            // Read here, on this thread, from the bytes just checked: the project step then
            // reads no file again to find them (Benchmarks/README.md, lint speed).
            done.append(
                Done(index: index, outcome: outcome, comments: outcome.checkedBytes.map(Suppressions.comments(in:))))
        }
        state.withLock { $0.finished.append(done) }
    }

    /// Every outcome by the index its file was added at; call after every worker returned.
    func outcomes() -> [ModuleContentChecker.Outcome?] {
        state.withLock { state in
            var result = [ModuleContentChecker.Outcome?](repeating: nil, count: state.files.count)
            for list in state.finished {
                for done in list { result[done.index] = done.outcome }
            }
            return result
        }
    }

    /// Every file's suppression comments by the index it was added at (nil: its bytes could
    /// not be read); call after every worker returned.
    func comments() -> [Suppressions.Comments?] {
        state.withLock { state in
            var result = [Suppressions.Comments?](repeating: nil, count: state.files.count)
            for list in state.finished {
                for done in list { result[done.index] = done.comments }
            }
            return result
        }
    }
}
