import Foundation

/// A value only reachable while holding its lock: every read and write goes through
/// `withLock`, so no access can forget the lock or keep the value past it.
///
/// An NSLock inside rather than `Synchronization.Mutex`, which needs macOS 15.
package final class Locked<Value> {
    private var value: Value
    private let lock = NSLock()

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
    private let condition = NSCondition()

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
