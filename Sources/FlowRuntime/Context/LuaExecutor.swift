import FlowPackage
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Dispatch
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One dedicated thread that runs a context's jobs in order: every Lua call of a context
/// happens here, so the Lua state is never touched by two threads.
///
/// A dedicated thread rather than a dispatch queue, so Lua gets a known, generous C stack and a
/// job can tell it is already on the executor (a Swift closure called from Lua that calls the
/// context again runs inline instead of deadlocking).
final class LuaExecutor: Sendable {
    private let queue = Awaited((jobs: [@Sendable () -> Void](), stopping: false))
    /// The thread's `pthread_self()`, as a number; set by the thread before `init` returns.
    private let thread = Locked<UInt?>(nil)

    init(name: String, stackSize: Int) {
        let started = DispatchSemaphore(value: 0)
        let queue = self.queue
        let threadNumber = self.thread
        DetachedThread.start(name: name, stackSize: stackSize) {
            threadNumber.withLock { $0 = currentThreadNumber() }
            started.signal()
            Self.runJobs(queue)
        }
        started.wait()
    }

    /// Whether the caller is running on this executor's thread.
    var isCurrent: Bool {
        thread.withLock { $0 } == currentThreadNumber()
    }

    /// Queues `job`; false when the executor has stopped.
    @discardableResult
    func async(_ job: @escaping @Sendable () -> Void) -> Bool {
        queue.withLock { queue in
            guard !queue.stopping else { return false }
            queue.jobs.append(job)
            return true
        }
    }

    /// Runs `body` on the executor and waits for it; inline when already there.
    func sync<T: Sendable>(_ body: @Sendable () throws -> T) throws -> T {
        if isCurrent { return try body() }
        return try withoutActuallyEscaping(body) { escapable in
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

    /// Lets the jobs already queued finish, then ends the thread; later jobs are refused.
    func stop() {
        queue.withLock { $0.stopping = true }
    }

    private static func runJobs(_ queue: Awaited<(jobs: [@Sendable () -> Void], stopping: Bool)>) {
        while let job = queue.wait(until: { queue -> (@Sendable () -> Void)?? in
            if !queue.jobs.isEmpty { return .some(queue.jobs.removeFirst()) }
            return queue.stopping ? .some(nil) : nil
        }) {
            job()
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
