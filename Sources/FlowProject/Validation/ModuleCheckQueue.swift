import Foundation

/// Module files waiting to be checked, filled by discovery while workers already check them.
///
/// Discovery adds each sources folder's files as soon as it is walked and calls `finish()` when
/// done; each worker (`work()`) takes one file at a time under the lock and keeps its outcomes
/// to itself, so only taking work is shared. `outcomes()` is read once every worker returned.
final class ModuleCheckQueue: @unchecked Sendable {
    struct File {
        var path: String
        var chunkName: String
        /// Whether the module's facts list its string literals (see `ReusableModuleAnalyzer`).
        var collectsStringLiterals = true
    }

    private let condition = NSCondition()
    private var files: [File] = []
    private var next = 0
    private var isFinished = false
    private var finished: [[(index: Int, outcome: ModuleContentChecker.Outcome)]] = []
    private let maximumSize: Int

    init(maximumSize: Int) {
        self.maximumSize = maximumSize
    }

    /// Adds files to check; returns the index of the first, which its outcome is filed under.
    @discardableResult
    func add(_ newFiles: [File]) -> Int {
        condition.lock()
        defer { condition.unlock() }
        let first = files.count
        files += newFiles
        condition.broadcast()
        return first
    }

    /// No more files will come: workers return once the queue is empty.
    func finish() {
        condition.lock()
        isFinished = true
        condition.broadcast()
        condition.unlock()
    }

    /// One file at a time: an uncontended lock costs far less than a module's check, and the
    /// workers then finish within one file of each other.
    private func take() -> (index: Int, file: File)? {
        condition.lock()
        defer { condition.unlock() }
        while next >= files.count && !isFinished { condition.wait() }
        guard next < files.count else { return nil }
        next += 1
        return (next - 1, files[next - 1])
    }

    /// Checks files until the queue is finished and empty, with this thread's own checker.
    func work() {
        var done: [(index: Int, outcome: ModuleContentChecker.Outcome)] = []
        // Created on the first file: a worker that finds nothing to do costs no Lua arena.
        var checker: ModuleContentChecker?
        while let (index, file) = take() {
            if checker == nil { checker = ModuleContentChecker(maximumSize: maximumSize) }
            done.append((index, checker!.check(path: file.path, chunkName: file.chunkName,
                                               collectsStringLiterals: file.collectsStringLiterals)))
        }
        condition.lock()
        finished.append(done)
        condition.unlock()
    }

    /// Every outcome by the index its file was added at; call after every worker returned.
    func outcomes() -> [ModuleContentChecker.Outcome?] {
        condition.lock()
        defer { condition.unlock() }
        var result = [ModuleContentChecker.Outcome?](repeating: nil, count: files.count)
        for list in finished {
            for (index, outcome) in list { result[index] = outcome }
        }
        return result
    }
}
