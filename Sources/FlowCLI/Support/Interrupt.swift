#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowLua
import FlowSupport
import Dispatch
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C (SIGINT) and SIGTERM, caught the one way every command catches them: a C handler
/// that writes the signal's number down a pipe, read by whoever waits.
///
/// The handler is installed synchronously before the work starts, so no signal falls in a gap
/// (a dispatch source is registered asynchronously: a signal sent just after it was made was
/// lost, a watch never ended and serve exited 0).
///
/// - `run --watch`: ``install(_:)`` with `.exitAtOnce`: while the start module runs, a signal
///   ends the process at once with 128 + its number, as the default action would; once
///   ``wait(orWoken:)`` runs, it ends the wait.
/// - `serve`: ``install(_:)`` with `.keepForWait`: a signal before the wait is kept for it, so
///   Ctrl-C right after the banner still stops the server and says so.
/// - `export`: ``handle(_:_:)`` runs an action (cancel the writer) on each Ctrl-C until
///   ``restoreDefault()``; the command then exits 130 itself.
/// - `run` without `--watch`: ``stopsLua()``: Ctrl-C stops the Lua program as lua5.4's does.
enum Interrupt {
    /// What a signal that comes before ``wait(orWoken:)`` does.
    enum BeforeWait {
        /// Ends the process with 128 + the signal, as the default action would.
        case exitAtOnce
        /// Is kept for the wait.
        case keepForWait
    }

    /// Installs the handler for `signals`; call once, on the thread that will wait, before the
    /// work starts.
    static func install(_ beforeWait: BeforeWait, signals: [Int32] = [SIGINT, SIGTERM]) {
        if interruptPipeRead < 0 {
            var descriptors: [Int32] = [-1, -1]
            guard pipe(&descriptors) == 0 else { return }
            // Close-on-exec: a program dev or run starts must never reach dev's signal pipe
            // (the runner closes every other descriptor in a child too).
            for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            interruptPipeRead = descriptors[0]
            interruptPipeWrite = descriptors[1]
        }
        interruptIsWaiting = beforeWait == .keepForWait ? 1 : 0
        caught = signals
        for signalNumber in signals { signal(signalNumber, interruptSignalHandler) }
        // A process started by another may inherit these signals blocked (a test runner's
        // threads block them); this thread takes them, whatever the others do.
        var set = sigset_t()
        sigemptyset(&set)
        for signalNumber in signals { sigaddset(&set, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Waits for a caught signal (returning which came) or for `wake` to be signalled
    /// (returning nil).
    static func wait(orWoken wake: DispatchSemaphore) -> Int32? {
        let writer = interruptPipeWrite
        interruptIsWaiting = 1
        DetachedThread.start {
            wake.wait()
            var zero: UInt8 = 0
            _ = write(writer, &zero, 1)
        }
        return nextSignal()
    }

    /// Runs `action` on a thread of its own for each of `signals` that comes, until
    /// ``restoreDefault()``.
    static func handle(_ signals: [Int32] = [SIGINT], _ action: @escaping @Sendable (Int32) -> Void) {
        install(.keepForWait, signals: signals)
        DetachedThread.start {
            while let signalNumber = nextSignal() { action(signalNumber) }
        }
    }

    /// `flowpkg run`'s Ctrl-C, as lua5.4 takes it: the running Lua code stops with
    /// "interrupted!" (`LuaInterrupt.request()`), and SIGINT gets its default action back, so a
    /// second Ctrl-C, or one that comes when no Lua state is armed (its finalizers running),
    /// ends the process at once. SIGTERM keeps its default action (status 143); both are
    /// unblocked on this thread, which a test runner may have started with them blocked.
    static func stopsLua() {
        handle([SIGINT]) { signalNumber in
            let stopping = LuaInterrupt.request()
            restoreDefault()
            if !stopping { raise(signalNumber) }
        }
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Gives the caught signals their default action back, and ends a ``handle(_:_:)`` thread.
    static func restoreDefault() {
        for signalNumber in caught { signal(signalNumber, SIG_DFL) }
        caught = []
        var zero: UInt8 = 0
        _ = write(interruptPipeWrite, &zero, 1)
    }

    /// The next signal written down the pipe, or nil for a wake-up.
    private static func nextSignal() -> Int32? {
        var byte: UInt8 = 0
        while read(interruptPipeRead, &byte, 1) < 0 && errno == EINTR {}
        return byte == 0 ? nil : Int32(byte)
    }

    nonisolated(unsafe) private static var caught: [Int32] = []
}

// Only what a signal handler may touch: plain integers and async-signal-safe calls.
nonisolated(unsafe) private var interruptPipeRead: Int32 = -1
nonisolated(unsafe) private var interruptPipeWrite: Int32 = -1
nonisolated(unsafe) private var interruptIsWaiting: Int32 = 0

private let interruptSignalHandler: @convention(c) (Int32) -> Void = { signalNumber in
    // A tool flowpkg waits for (luarocks) is in a process group of its own: it gets the signal too.
    ChildProcessGroups.forward(signalNumber)
    if interruptIsWaiting == 0 { _exit(128 + signalNumber) }
    var byte = UInt8(truncatingIfNeeded: signalNumber)
    _ = write(interruptPipeWrite, &byte, 1)
}
