import FlowLua
import FlowSupport
import Dispatch
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a context's jobs one at a time, in order: every Lua call of a context happens inside a
/// job, so the Lua state is never touched by two threads at once.
///
/// A synchronous job runs on the caller's thread, once no other job runs, when that thread's
/// stack is at least `stackSize` (the process's main thread, with the default 8 MiB): a launch
/// then makes no thread and hands nothing over (`Benchmarks/README.md`, host_launch). An
/// asynchronous job, or a synchronous one from a thread with a smaller stack, runs on the
/// context's own thread, with a stack of `stackSize`, started the first time one is needed.
/// Whichever thread holds the executor runs the jobs queued meanwhile before letting go. A job
/// can tell it is on the executor (a Swift closure called from Lua that calls the context again
/// runs inline instead of deadlocking).
final class LuaExecutor: Sendable {
    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var stopping = false
        /// The thread running the context's jobs now (`pthread_self()` as a number), if any.
        var owner: UInt?
        var hasThread = false
    }

    private let state = Awaited(State())
    private let name: String
    private let stackSize: Int

    init(name: String, stackSize: Int) {
        self.name = name
        self.stackSize = stackSize
    }

    /// Whether the caller is running on this executor (inside one of its jobs).
    var isCurrent: Bool {
        let me = currentThreadNumber()
        return state.withLock { $0.owner == me }
    }

    /// Queues `job`; false when the executor has stopped.
    @discardableResult
    func async(_ job: @escaping @Sendable () -> Void) -> Bool {
        let outcome = state.withLock { state -> Bool? in
            guard !state.stopping else { return nil }
            state.jobs.append(job)
            // An owner runs the queued jobs before it lets go; without one, the thread does.
            guard state.owner == nil, !state.hasThread else { return false }
            state.hasThread = true
            return true
        }
        guard let startsThread = outcome else { return false }
        if startsThread { startThread() }
        return true
    }

    /// Runs `job` now on the caller's thread when the executor is free, else queues it (a job
    /// that must not wait, such as freeing a reference, and needs little stack).
    func runOrQueue(_ job: @escaping @Sendable () -> Void) {
        let me = currentThreadNumber()
        let runsNow = state.withLock { state -> Bool in
            guard !state.stopping, state.owner == nil else { return false }
            state.owner = me
            return true
        }
        guard runsNow else {
            async(job)
            return
        }
        runQueuedJobs()
        job()
        release()
    }

    /// Runs `body` on the executor and waits for it: inline when already there or when the
    /// caller's stack is large enough, else on the context's thread.
    func sync<T: Sendable>(_ body: @Sendable () throws -> T) throws -> T {
        if isCurrent { return try body() }
        guard hasStackEnough() else { return try syncOnThread(body) }
        let me = currentThreadNumber()
        let stopped = state.wait { state -> Bool? in
            guard state.owner == nil else { return nil }
            state.owner = me
            return state.stopping
        }
        defer { release() }
        // Jobs queued before this one run first, as on a queue.
        runQueuedJobs()
        if stopped { throw LuaContextError.terminated }
        return try body()
    }

    /// Whether the calling thread's stack is `stackSize`, give or take a sixteenth: the system
    /// reports the main thread's 8 MiB less a guard page.
    private func hasStackEnough() -> Bool {
        LuaCStack.sizeOfCurrentThread >= stackSize - stackSize / 16
    }

    /// Lets the jobs already queued finish, then runs `last` (closing the state) and refuses
    /// later jobs; waits for `last` to have run unless called from a job, where it runs once
    /// the current job returns.
    func stop(finally last: @escaping @Sendable () -> Void) {
        let me = currentThreadNumber()
        let waits = state.withLock { state -> Bool in
            guard !state.stopping else { return false }
            state.stopping = true
            state.jobs.append(last)
            return state.owner != me
        }
        guard waits else { return }
        // Take the executor (after whatever job runs now) and run what is left, `last` included.
        _ = state.wait { state -> Bool? in
            guard state.owner == nil else { return nil }
            state.owner = me
            return true
        }
        release()
    }

    /// Runs the queued jobs, then lets the executor go.
    private func release() {
        while let job = state.withLock({ state -> (@Sendable () -> Void)? in
            guard !state.jobs.isEmpty else {
                state.owner = nil
                return nil
            }
            return state.jobs.removeFirst()
        }) {
            job()
        }
    }

    private func runQueuedJobs() {
        while let job = state.withLock({ $0.jobs.isEmpty ? nil : $0.jobs.removeFirst() }) { job() }
    }

    /// `sync` on the context's own thread, for a caller whose stack is smaller than `stackSize`.
    private func syncOnThread<T: Sendable>(_ body: @Sendable () throws -> T) throws -> T {
        try withoutActuallyEscaping(body) { escapable in
            // The job reaches `body` only through `slot`, and empties it before signalling: the
            // executor may hold the job a moment longer, but never the closure.
            let slot = Locked<(@Sendable () throws -> T)?>(escapable)
            let outcome = Locked<Result<T, any Error>?>(nil)
            let done = DispatchSemaphore(value: 0)
            let queued = async {
                let result = Result { try slot.withLock { $0.take() }!() }
                outcome.withLock { $0 = result }
                done.signal()
            }
            guard queued else {
                slot.withLock { $0 = nil }
                throw LuaContextError.terminated
            }
            done.wait()
            return try outcome.withLock { $0 }!.get()
        }
    }

    /// The context's own thread: it takes the executor whenever jobs wait and no one holds it,
    /// and ends once the executor stopped and nothing is left.
    private func startThread() {
        let state = self.state
        DetachedThread.start(name: name, stackSize: stackSize) {
            let me = currentThreadNumber()
            while state.wait(until: { state -> Bool? in
                if state.owner == nil, !state.jobs.isEmpty {
                    state.owner = me
                    return true
                }
                return state.stopping && state.jobs.isEmpty ? false : nil
            }) {
                while let job = state.withLock({ state -> (@Sendable () -> Void)? in
                    guard !state.jobs.isEmpty else {
                        state.owner = nil
                        return nil
                    }
                    return state.jobs.removeFirst()
                }) {
                    job()
                }
            }
        }
    }
}

/// The calling thread's `pthread_self()` as a number, which unlike `pthread_t` is Sendable everywhere.
private func currentThreadNumber() -> UInt {
    #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
    #else
        UInt(pthread_self())
    #endif
}
