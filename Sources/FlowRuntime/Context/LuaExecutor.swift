import Foundation

/// One dedicated thread that runs a context's jobs in order: every Lua call of a context
/// happens here, so the Lua state is never touched by two threads.
///
/// A dedicated thread rather than a dispatch queue, so Lua gets a known, generous C stack and a
/// job can tell it is already on the executor (a Swift closure called from Lua that calls the
/// context again runs inline instead of deadlocking).
final class LuaExecutor: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []
    private var stopping = false
    private var threadID: pthread_t?

    init(name: String, stackSize: Int) {
        let started = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            threadID = pthread_self()
            started.signal()
            runJobs()
        }
        thread.name = name
        thread.stackSize = stackSize
        thread.start()
        started.wait()
    }

    /// Whether the caller is running on this executor's thread.
    var isCurrent: Bool {
        guard let threadID else { return false }
        return pthread_equal(threadID, pthread_self()) != 0
    }

    /// Queues `job`; false when the executor has stopped.
    @discardableResult
    func async(_ job: @escaping () -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping else { return false }
        jobs.append(job)
        condition.signal()
        return true
    }

    /// Runs `body` on the executor and waits for it; inline when already there.
    func sync<T>(_ body: () throws -> T) throws -> T {
        if isCurrent { return try body() }
        return try withoutActuallyEscaping(body) { escapable in
            // The job reaches `body` only through `outcome`, and drops it before signalling:
            // the executor may hold the job a moment longer, but never the closure.
            let outcome = Outcome<T>()
            outcome.body = escapable
            let done = DispatchSemaphore(value: 0)
            let queued = async {
                outcome.result = Result { try outcome.body!() }
                outcome.body = nil
                done.signal()
            }
            guard queued else {
                outcome.body = nil
                throw LuaContextError.terminated
            }
            done.wait()
            return try outcome.result!.get()
        }
    }

    /// Lets the jobs already queued finish, then ends the thread; later jobs are refused.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func runJobs() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}

/// Carries a job's result back to the thread waiting for it.
private final class Outcome<T>: @unchecked Sendable {
    var body: (() throws -> T)?
    var result: Result<T, any Error>?
}
