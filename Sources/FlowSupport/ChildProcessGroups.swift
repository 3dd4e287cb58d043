#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process groups of the children flowpkg started and has not yet reaped, kept where a
/// signal handler may read them (plain integers in memory allocated once) and act on them with
/// `kill`, which is async-signal-safe.
///
/// - When flowpkg exits (`exit`, an `atexit` handler), every group still registered gets SIGKILL.
/// - When flowpkg receives SIGINT, SIGTERM or SIGHUP, the groups of tools it waits for
///   (`forwardsSignals`) get the same signal. If no other handler was installed for it, the
///   runner's own handler does this; FlowCLI's `Interrupt` handler calls ``forward(_:)``.
///   While ``ChildProcess/run(_:deadline:)`` waits, the signal is kept for it (the run throws
///   `interrupted`, so callers unwind and remove their scratch files); otherwise every group
///   gets it and flowpkg ends as the signal's default action would.
package enum ChildProcessGroups {
    static let capacity = 64

    /// Registers the group `group` (its leader's process id); the slot to unregister with, or
    /// nil when every slot is taken (the group is then only reaped, never signalled).
    static func register(_ group: pid_t, forwardsSignals: Bool) -> Int? {
        installOnce()
        return registration.withLock { _ -> Int? in
            for index in 0..<capacity where childGroupSlots[index] == 0 {
                childGroupForwards[index] = forwardsSignals ? 1 : 0
                childGroupSlots[index] = group
                return index
            }
            return nil
        }
    }

    static func unregister(_ slot: Int) {
        registration.withLock { _ in
            childGroupSlots[slot] = 0
            childGroupForwards[slot] = 0
        }
    }

    /// The signal flowpkg received while a child it waits for ran, if one did.
    package static var receivedSignal: Int32? { childSignalReceived == 0 ? nil : childSignalReceived }

    /// Sends `signalNumber` to every group that forwards signals and records it for the waiting
    /// run. Async-signal-safe: for a signal handler (FlowCLI's `Interrupt`).
    package static func forward(_ signalNumber: Int32) {
        forwardFromHandler(signalNumber)
    }

    /// Counts a synchronous run waiting for its child (a signal is then kept for it).
    static func beginWaiting() { registration.withLock { _ in childSynchronousWaits += 1 } }
    static func endWaiting() { registration.withLock { _ in childSynchronousWaits -= 1 } }

    private static let registration = Locked(())

    /// Installs the exit handler, and the signal handler for each of SIGINT, SIGTERM and SIGHUP
    /// that is still at its default action, the first time a group is registered.
    private static func installOnce() {
        registration.withLock { _ in
            guard childGroupsInstalled == 0 else { return }
            childGroupsInstalled = 1
            // The slots exist before any handler can read them.
            _ = childGroupSlots
            _ = childGroupForwards
            atexit { signalEveryGroup(SIGKILL) }
            for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
                var current = sigaction()
                guard sigaction(signalNumber, nil, &current) == 0 else { continue }
                #if canImport(Glibc)
                    let isDefault = current.__sigaction_handler.sa_handler == nil
                #else
                    let isDefault = current.__sigaction_u.__sa_handler == nil
                #endif
                guard isDefault else { continue }
                signal(signalNumber, childSignalHandler)
                // A process started by another may inherit these signals blocked (a test
                // runner's threads block them): the thread that waits for its tools takes them.
                var set = sigset_t()
                sigemptyset(&set)
                sigaddset(&set, signalNumber)
                pthread_sigmask(SIG_UNBLOCK, &set, nil)
            }
        }
    }
}

// Only what a signal handler may touch: memory allocated once and never freed, plain integers.
nonisolated(unsafe) private let childGroupSlots: UnsafeMutablePointer<pid_t> = {
    let slots = UnsafeMutablePointer<pid_t>.allocate(capacity: ChildProcessGroups.capacity)
    slots.initialize(repeating: 0, count: ChildProcessGroups.capacity)
    return slots
}()
nonisolated(unsafe) private let childGroupForwards: UnsafeMutablePointer<Int32> = {
    let flags = UnsafeMutablePointer<Int32>.allocate(capacity: ChildProcessGroups.capacity)
    flags.initialize(repeating: 0, count: ChildProcessGroups.capacity)
    return flags
}()
nonisolated(unsafe) private var childGroupsInstalled: Int32 = 0
nonisolated(unsafe) private var childSignalReceived: Int32 = 0
nonisolated(unsafe) private var childSynchronousWaits: Int32 = 0

/// `kill(-group, signal)` for every registered group (all of them, or those that forward).
private func signalEveryGroup(_ signalNumber: Int32, forwardedOnly: Bool = false) {
    for index in 0..<ChildProcessGroups.capacity {
        let group = childGroupSlots[index]
        if group > 0 && (!forwardedOnly || childGroupForwards[index] != 0) { kill(-group, signalNumber) }
    }
}

private func forwardFromHandler(_ signalNumber: Int32) {
    childSignalReceived = signalNumber
    signalEveryGroup(signalNumber, forwardedOnly: true)
}

private let childSignalHandler: @convention(c) (Int32) -> Void = { signalNumber in
    forwardFromHandler(signalNumber)
    if childSynchronousWaits > 0 { return }
    // Nobody waits to unwind: every child gets the signal, and flowpkg ends as it would have.
    signalEveryGroup(signalNumber)
    signal(signalNumber, SIG_DFL)
    raise(signalNumber)
}
