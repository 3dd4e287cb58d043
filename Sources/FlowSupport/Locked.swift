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

/// A value only reachable while holding its lock: every read and write goes through
/// `withLock`, so no access can forget the lock or keep the value past it.
///
/// A pthread mutex inside: not `Synchronization.Mutex`, which needs macOS 15, and not NSLock,
/// which is in Foundation but not in FoundationEssentials (the static Linux binary leaves
/// Foundation, and the ICU data it brings, out).
package final class Locked<Value> {
    private var value: Value
    private let lock = Condition()

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock; `body` must not call back into this lock.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

// Sendable for the same reason a mutex is: the value is only touched under the lock.
extension Locked: @unchecked Sendable where Value: Sendable {}

/// A value behind a lock with a condition to wait on: for a producer and its consumers
/// (a work queue, a bounded buffer). Waiters wake whenever `withLock` changed the value.
package final class Awaited<Value> {
    private var value: Value
    private let condition = Condition()

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock, then wakes every waiter.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&value)
    }

    /// Waits until `ready` returns a result (it is called with the lock held, first at once and
    /// again after every change), then wakes the other waiters and returns it.
    package func wait<Result>(until ready: (inout Value) -> Result?) -> Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        while true {
            if let result = ready(&value) { return result }
            condition.wait()
        }
    }

    /// As `wait(until:)`, giving up at `deadline` with nil.
    package func wait<Result>(until ready: (inout Value) -> Result?, deadline: Date) -> Result? {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        while true {
            if let result = ready(&value) { return result }
            if !condition.wait(until: deadline) { return ready(&value) }
        }
    }
}

extension Awaited: @unchecked Sendable where Value: Sendable {}

/// A pthread mutex and a condition variable on it, allocated once so they never move: the
/// part of NSCondition the targets use (NSCondition is not in FoundationEssentials).
package final class Condition {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let variable = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        mutex.initialize(to: pthread_mutex_t())
        variable.initialize(to: pthread_cond_t())
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(variable, nil)
    }

    deinit {
        pthread_cond_destroy(variable)
        pthread_mutex_destroy(mutex)
        variable.deallocate()
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }
    package func broadcast() { pthread_cond_broadcast(variable) }
    package func wait() { pthread_cond_wait(variable, mutex) }

    /// Waits for a broadcast or `deadline` (wall-clock time, as NSCondition's `wait(until:)`);
    /// false once the deadline has passed.
    package func wait(until deadline: Date) -> Bool {
        let seconds = max(0, deadline.timeIntervalSince1970)
        var time = timespec()
        time.tv_sec = Int(seconds)
        time.tv_nsec = Int((seconds - seconds.rounded(.down)) * 1_000_000_000)
        return pthread_cond_timedwait(variable, mutex, &time) != ETIMEDOUT
    }
}
