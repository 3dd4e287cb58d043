import FlowSupport
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

/// A `flowpkg run` started by `flowpkg dev` in the same process group (Ctrl-C on the terminal
/// reaches both), writing to the same standard output and error, reading nothing: the terminal's
/// input is dev's (`r` + Enter).
final class ChildProgram: Sendable {
    let processID: pid_t
    private let status = Locked<Int32?>(nil)

    /// Starts `arguments` with the flowpkg binary; `onExit` gets its exit status (128 + the
    /// signal that ended it) on a thread of its own.
    init(arguments: [String], secrets: [String: String] = [:], onExit: @escaping @Sendable (Int32) -> Void)
        throws(ChildProgramError)
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // dev takes SIGINT and SIGTERM down a pipe on one thread and blocks them on others:
        // the program starts with neither blocked and both at their default action.
        var none = sigset_t(), both = sigset_t()
        sigemptyset(&none)
        sigemptyset(&both)
        sigaddset(&both, SIGINT)
        sigaddset(&both, SIGTERM)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &both)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let executable = Flowpkg.executablePath
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // The program ends when dev is gone, even killed (`ParentWatch`).
        // Secrets go in the environment only, readable by this user alone.
        for value in secrets.values where arguments.contains(where: { $0.contains(value) }) {
            throw ChildProgramError(executable: Flowpkg.executablePath, reason: "a secret is on its command line")
        }
        let environment =
            (ParentWatch.childEnvironment().filter { entry in !secrets.keys.contains { entry.hasPrefix($0 + "=") } }
            + secrets.map { "\($0.key)=\($0.value)" }).map { strdup($0) } + [nil]
        defer { environment.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environment)
        guard result == 0 else {
            throw ChildProgramError(executable: executable, reason: String(cString: strerror(result)))
        }
        processID = pid
        let status = self.status, child = pid
        DetachedThread.start {
            var raw: Int32 = 0
            while waitpid(child, &raw, 0) < 0 && errno == EINTR {}
            // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift cannot call (C macros).
            let code = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
            status.withLock { $0 = code }
            onExit(code)
        }
    }

    /// Its exit status once it ended.
    var exitStatus: Int32? { status.withLock { $0 } }

    /// Sends `signal` unless it ended already.
    func send(_ signal: Int32) {
        if exitStatus == nil { kill(processID, signal) }
    }
}

/// The program could not be started.
struct ChildProgramError: Error, CustomStringConvertible {
    var executable: String
    var reason: String
    var description: String { "cannot start \(executable): \(reason)" }
}
