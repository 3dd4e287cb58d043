import FlowPackage
import Foundation

/// One dedicated thread that runs a context's jobs in order: every Lua call of a context
/// happens here, so the Lua state is never touched by two threads.
///
/// A dedicated thread rather than a dispatch queue, so Lua gets a known, generous C stack and a
/// job can tell it is already on the executor (a Swift closure called from Lua that calls the
/// context again runs inline instead of deadlocking).
///
/// `@unchecked`: the jobs are closures for this thread only, and `threadID` is set before `init` returns.
final class LuaExecutor: @unchecked Sendable {
    private let queue = Awaited((jobs: [() -> Void](), stopping: false))
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
        queue.withLock { queue in
            guard !queue.stopping else { return false }
            queue.jobs.append(job)
            return true
        }
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
        queue.withLock { $0.stopping = true }
    }

    private func runJobs() {
        while let job = queue.wait(until: { queue -> (() -> Void)?? in
            if !queue.jobs.isEmpty { return .some(queue.jobs.removeFirst()) }
            return queue.stopping ? .some(nil) : nil
        }) {
            job()
        }
    }
}

/// Carries a job's result back to the thread waiting for it.
private final class Outcome<T>: @unchecked Sendable {
    var body: (() throws -> T)?
    var result: Result<T, any Error>?
}
