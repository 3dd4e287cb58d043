import FlowSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `run` that `flowpkg dev` starts ends when dev is gone. Dev passes its Ctrl-C and its
/// SIGTERM on, but a SIGKILL it never sees: without this the program would run on with nobody
/// to stop it. The child polls `getppid()` because Linux's `PR_SET_PDEATHSIG` is set through
/// `prctl`, a variadic C function Swift cannot call, and macOS has no equivalent.
enum ParentWatch {
    /// Set by dev in its child's environment: dev's process id.
    static let variable = "FLOWPKG_DEV_PARENT"

    /// Starts watching when dev asked for it (and takes the variable out of the environment,
    /// so that programs this one starts are not watched for the wrong parent).
    static func startIfAsked() {
        guard let value = getenv(variable).map({ String(cString: $0) }), let parent = pid_t(value) else { return }
        unsetenv(variable)
        DetachedThread.start {
            // Reparented (to init or a subreaper) once dev is gone.
            while getppid() == parent { usleep(100_000) }
            // As a hang-up of the terminal would end it.
            kill(getpid(), SIGHUP)
        }
    }
}
