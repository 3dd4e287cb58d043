import FlowSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `run` that `flowpkg dev` starts ends when dev is gone. Dev passes its Ctrl-C and its
/// SIGTERM on, but a SIGKILL it never sees: without this the program would run on with nobody
/// to stop it. Dev starts it with a lifeline (`ChildCommand.lifeline`): descriptor 3 is the read
/// end of a pipe only dev can write to, so a read there blocks until dev has gone, whichever
/// way, and then returns end of file. (Linux's `PR_SET_PDEATHSIG` would follow the thread that
/// started the child, not dev, and macOS has no equivalent.)
enum ParentWatch {
    /// Set by dev in its child's environment: dev's process id.
    static let variable = "FLOWPKG_DEV_PARENT"

    /// Starts watching when dev asked for it (and takes the variable out of the environment,
    /// so that programs this one starts are not watched for the wrong parent).
    static func startIfAsked() {
        guard let value = getenv(variable).map({ String(cString: $0) }), pid_t(value) != nil else { return }
        unsetenv(variable)
        let lifeline = ChildCommand.lifelineDescriptor
        // Not inherited by what the Lua program starts (os.execute).
        _ = fcntl(lifeline, F_SETFD, FD_CLOEXEC)
        DetachedThread.start {
            var byte: UInt8 = 0
            var count = 0
            repeat { count = read(lifeline, &byte, 1) } while count < 0 && errno == EINTR
            // End of file: dev is gone. (An error: descriptor 3 is no lifeline, nothing to watch.)
            guard count == 0 else { return }
            // As a hang-up of the terminal would end it.
            kill(getpid(), SIGHUP)
        }
    }
}
