import Foundation

/// Ctrl-C for `flowpkg run --watch` and `flowpkg serve`, caught from before the start module
/// runs (or the server starts), so no signal falls between the first output and the wait (a
/// dispatch source is registered asynchronously: a signal sent in that gap was lost, and the
/// watch never ended; serve exited 0).
///
/// While the start module runs, Ctrl-C ends the process at once with 128 + the signal, as
/// the default action would (with the shell's status); once `wait` runs, it ends the wait.
enum WatchInterrupt {
    /// Installs the handler for SIGINT and SIGTERM; call once, on the thread that will `wait`,
    /// before the start module runs.
    ///
    /// With `queueing`, a signal that comes before `wait` is kept for it instead of ending the
    /// process (serve: Ctrl-C right after the banner still stops the server and says so).
    static func install(queueing: Bool = false) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { return }
        watchPipeRead = descriptors[0]
        watchPipeWrite = descriptors[1]
        watchIsWaiting = queueing ? 1 : 0
        signal(SIGINT, watchSignalHandler)
        signal(SIGTERM, watchSignalHandler)
        // A process started by another may inherit these signals blocked (a test runner's
        // threads block them); this thread takes them, whatever the others do.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// Waits for SIGINT or SIGTERM (returning which came) or for `wake` to be signalled
    /// (returning nil).
    static func wait(orWoken wake: DispatchSemaphore) -> Int32? {
        let writer = watchPipeWrite, reader = watchPipeRead
        watchIsWaiting = 1
        Thread {
            wake.wait()
            var zero: UInt8 = 0
            _ = write(writer, &zero, 1)
        }.start()
        var byte: UInt8 = 0
        while read(reader, &byte, 1) < 0 && errno == EINTR {}
        return byte == 0 ? nil : Int32(byte)
    }
}

// Only what a signal handler may touch: plain integers and async-signal-safe calls.
nonisolated(unsafe) private var watchPipeRead: Int32 = -1
nonisolated(unsafe) private var watchPipeWrite: Int32 = -1
nonisolated(unsafe) private var watchIsWaiting: Int32 = 0

private let watchSignalHandler: @convention(c) (Int32) -> Void = { signalNumber in
    if watchIsWaiting == 0 { _exit(128 + signalNumber) }
    var byte = UInt8(truncatingIfNeeded: signalNumber)
    _ = write(watchPipeWrite, &byte, 1)
}
