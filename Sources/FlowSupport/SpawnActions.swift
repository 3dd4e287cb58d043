#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `posix_spawn` does in the child before the program runs: input from `/dev/null`,
/// output where asked, every other descriptor closed, the working directory set for the child
/// alone, and its own process group with no signal blocked or ignored.
///
/// glibc declares `posix_spawn_file_actions_addchdir_np` (2.29) and
/// `posix_spawn_file_actions_addclosefrom_np` (2.34) only under `_GNU_SOURCE`, which Swift's
/// Glibc module does not define: they are looked up by name once.
final class SpawnActions {
    // Allocated once, so the C structures never move while libc holds them.
    #if canImport(Glibc)
        private let actions = UnsafeMutablePointer<posix_spawn_file_actions_t>.allocate(capacity: 1)
        private let attributes = UnsafeMutablePointer<posix_spawnattr_t>.allocate(capacity: 1)
    #else
        private let actions = UnsafeMutablePointer<posix_spawn_file_actions_t?>.allocate(capacity: 1)
        private let attributes = UnsafeMutablePointer<posix_spawnattr_t?>.allocate(capacity: 1)
    #endif

    /// `output`: the write ends of the output and error pipes, or nil to inherit flowpkg's
    /// (`discard` sends both to `/dev/null`); `lifeline`: a descriptor the child gets as 3.
    init(output: (Int32, Int32)?, discard: Bool, workingDirectory: String?, lifeline: Int32? = nil)
        throws(ChildProcessError)
    {
        posix_spawn_file_actions_init(actions)
        posix_spawnattr_init(attributes)
        posix_spawn_file_actions_addopen(actions, 0, "/dev/null", O_RDONLY, 0)
        if let (out, err) = output {
            posix_spawn_file_actions_adddup2(actions, out, 1)
            posix_spawn_file_actions_adddup2(actions, err, 2)
        } else if discard {
            posix_spawn_file_actions_addopen(actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(actions, 2, "/dev/null", O_WRONLY, 0)
        }
        if let lifeline { posix_spawn_file_actions_adddup2(actions, lifeline, ChildCommand.lifelineDescriptor) }
        var flags = Int32(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        #if canImport(Glibc)
            // Every descriptor but 0, 1 and 2 (and the lifeline) closed in the child, whoever
            // opened it and however.
            guard let closeFrom = Self.closeFrom else {
                throw .cannotStart(command: "", reason: "this C library lacks posix_spawn_file_actions_addclosefrom_np")
            }
            _ = closeFrom(actions, lifeline == nil ? 3 : ChildCommand.lifelineDescriptor + 1)
            if let workingDirectory {
                guard let changeDirectory = Self.changeDirectory else {
                    throw .cannotStart(command: "", reason: "this C library lacks posix_spawn_file_actions_addchdir_np")
                }
                _ = changeDirectory(actions, workingDirectory)
            }
        #else
            flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
            if let workingDirectory { posix_spawn_file_actions_addchdir_np(actions, workingDirectory) }
        #endif
        // Its own process group, signalled as one; an editor or a test runner may start
        // flowpkg with signals blocked or ignored, which a child would inherit.
        posix_spawnattr_setpgroup(attributes, 0)
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT] { sigaddset(&defaults, signalNumber) }
        posix_spawnattr_setsigmask(attributes, &none)
        posix_spawnattr_setsigdefault(attributes, &defaults)
        posix_spawnattr_setflags(attributes, Int16(truncatingIfNeeded: flags))
    }

    deinit {
        posix_spawn_file_actions_destroy(actions)
        posix_spawnattr_destroy(attributes)
        actions.deallocate()
        attributes.deallocate()
    }

    /// Starts `executable` (a path) with `argv` (its name first) and `environment`.
    func spawn(_ executable: String, argv: [String], environment: [String]) -> (pid_t, Int32) {
        let argumentPointers = argv.map { strdup($0) } + [nil]
        let environmentPointers = environment.map { strdup($0) } + [nil]
        defer {
            argumentPointers.forEach { free($0) }
            environmentPointers.forEach { free($0) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, actions, attributes, argumentPointers, environmentPointers)
        return (pid, status)
    }

    /// `WIFEXITED`/`WEXITSTATUS`/`WTERMSIG` (C macros Swift cannot call): the exit status, or
    /// 128 + the signal that ended the child, as a shell reports it.
    static func exitStatus(fromWaitStatus raw: Int32) -> Int32 {
        (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
    }

    #if canImport(Glibc)
        private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        private typealias ChangeDirectory =
            @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
        nonisolated(unsafe) private static let closeFrom: CloseFrom? = symbol(
            "posix_spawn_file_actions_addclosefrom_np")
        nonisolated(unsafe) private static let changeDirectory: ChangeDirectory? = symbol(
            "posix_spawn_file_actions_addchdir_np")

        private static func symbol<Function>(_ name: String) -> Function? {
            // RTLD_DEFAULT is a null handle on glibc.
            guard let address = dlsym(nil, name) else { return nil }
            return unsafeBitCast(address, to: Function.self)
        }
    #endif
}
