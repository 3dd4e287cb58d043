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

/// A program the adapter launched: `flowpkg run …` as a child process, its stdin empty (the
/// adapter's own is the editor's), its stdout and stderr read back as `output` events.
final class ProgramProcess: @unchecked Sendable {
    let processID: pid_t
    /// Set once the process has been waited for: its id may then name another process.
    let hasExited = Awaited(false)

    private init(processID: pid_t) {
        self.processID = processID
    }

    struct SpawnFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `executable` with `arguments` in `directory`, `environment` added to this
    /// process's; `output` gets each chunk written (`stdout` or `stderr`), `exited` the status
    /// once both streams ended and the process is gone.
    static func spawn(
        executable: String, arguments: [String], directory: String, environment: [String: String],
        output: @escaping @Sendable (String, String) -> Void, exited: @escaping @Sendable (Int32) -> Void
    ) throws -> ProgramProcess {
        var outPipe: [Int32] = [0, 0]
        var errPipe: [Int32] = [0, 0]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw SpawnFailure(description: "no pipe: \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for descriptor in outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, descriptor) }
        // An editor (or a test runner) may start the adapter with signals blocked, and a child
        // inherits that mask: a program with SIGTERM blocked would outlive `terminate`. It starts
        // with none blocked and the usual ones at their default action.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&defaults, signalNumber) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var merged: [String: String] = [:]
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                merged[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            index += 1
        }
        for (key, value) in environment { merged[key] = value }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var spawned: pid_t = 0
        // The child starts in `directory`: posix_spawn_file_actions_addchdir_np is not in every
        // libc's Swift module, so the adapter (whose paths are all absolute) moves there for
        // the moment of the spawn.
        let previous = getcwd(nil, 0)
        defer { free(previous) }
        guard chdir(directory) == 0 else {
            throw SpawnFailure(
                description: "\(directory): cannot run the program there (\(String(cString: strerror(errno))))")
        }
        let status = posix_spawn(&spawned, executable, &actions, &attributes, argv, envp)
        if let previous { _ = chdir(previous) }
        let pid = spawned
        close(outPipe[1])
        close(errPipe[1])
        guard status == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw SpawnFailure(description: "cannot start \(executable): \(String(cString: strerror(status)))")
        }
        let process = ProgramProcess(processID: pid)
        let streamsDone = Awaited(0)
        for (descriptor, category) in [(outPipe[0], "stdout"), (errPipe[0], "stderr")] {
            DetachedThread.start(name: "flowpkg.dap.out") {
                var buffer = [UInt8](repeating: 0, count: 16 * 1024)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    if count <= 0 { break }
                    output(String(decoding: buffer[..<count], as: UTF8.self), category)
                }
                close(descriptor)
                streamsDone.withLock { $0 += 1 }
            }
        }
        DetachedThread.start(name: "flowpkg.dap.wait") {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            process.hasExited.withLock { $0 = true }
            _ = streamsDone.wait(until: { $0 == 2 ? true : nil })
            let code: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
            exited(code)
        }
        return process
    }

    /// Ends the program and waits until it has gone: SIGTERM, then SIGKILL for one still there
    /// after `grace` seconds. The adapter calls it before it exits itself, so nothing it
    /// launched outlives it.
    func terminate(grace: Double = 3) {
        let pid = processID
        hasExited.withLock { if !$0 { kill(pid, SIGTERM) } }
        if hasExited.wait(until: { $0 ? true : nil }, deadline: Date() + grace) == nil {
            hasExited.withLock { if !$0 { kill(pid, SIGKILL) } }
            _ = hasExited.wait(until: { $0 ? true : nil }, deadline: Date() + 30)
        }
    }
}
