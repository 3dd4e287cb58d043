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

/// flowpkg's one way to run another program (luarocks, `flowpkg run` for dev and dap, an
/// editor), started by `SpawnActions` with every child in a process group of its own, signalled and killed
/// as one (on its deadline, on flowpkg's SIGINT, SIGTERM and SIGHUP, and at flowpkg's exit:
/// ``ChildProcessGroups``), no descriptor of flowpkg's but 0, 1 and 2 inherited, its own
/// working directory, and secrets in its environment only.
///
/// Why not swift-subprocess 1.0.2 (measured at 1fcc89c with Benchmarks/child_runner.sh, static
/// release builds, stripped; Benchmarks/README.md "Child runner"): it adds 0.73 MB to a program
/// that already links FoundationEssentials as flowpkg does (14.30 MB against 13.57 MB, for
/// swift-system and its own shims), costs 1.5 times the CPU per child (0.86 ms against 0.59 ms to
/// start, read and reap `/bin/true`; wall time the same, 0.88 ms against 0.92 ms), and offers only
/// async entry points, while every caller here waits on a thread of its own (luarocks inside the
/// synchronous `lock`, dev's and dap's waiters). Nor does it keep the registry of process groups a
/// signal handler needs to pass flowpkg's SIGTERM on, which flowpkg would have to add either way.
package final class ChildProcess: @unchecked Sendable {
    /// The child's process id, which is also its process group's id.
    package let processID: pid_t
    /// The command line as a person would type it, for messages.
    package let commandLine: String
    private let state = Awaited(State())

    private struct State {
        /// Set once the child was reaped (its process id may then name another process).
        var status: Int32?
        /// Output pipes still being read.
        var openStreams = 0
    }

    private init(processID: pid_t, commandLine: String, openStreams: Int) {
        self.processID = processID
        self.commandLine = commandLine
        state.withLock { $0.openStreams = openStreams }
    }

    /// Starts `command`; `onExit` gets its exit status (128 + the signal that ended it), on a
    /// thread of the runner's, once it was reaped and its output read to the end.
    ///
    /// `endsWithThisThread`: the child gets SIGKILL from the kernel when the calling thread
    /// ends, even when flowpkg is SIGKILLed and can clean up nothing (issue 43: a killed `lock`
    /// left luarocks running until its deadline). Linux's parent-death signal, set by
    /// `setpriv --pdeathsig KILL` (util-linux), which then runs the command in its place: the spawn
    /// call (SpawnActions) cannot set it. Only for a caller that waits for the child on this thread (`run`), since
    /// the kernel ties the signal to the thread that started it. Where there is no setpriv, the
    /// child is started as it is.
    package static func start(
        _ command: ChildCommand, endsWithThisThread: Bool = false, onExit: (@Sendable (Int32) -> Void)? = nil
    )
        throws(ChildProcessError) -> ChildProcess
    {
        let line = command.commandLine
        if let variable = command.secretOnCommandLine {
            throw .secretOnCommandLine(command: line, variable: variable)
        }
        guard let executable = command.searchesPath ? ChildCommand.find(command.executable) : command.executable
        else { throw .cannotStart(command: line, reason: "it is not on PATH") }
        var pipes: [Int32]?
        if case .stream = command.output { pipes = try closeOnExecPipes(2, for: line) }
        // The lifeline's write end stays here, close-on-exec, until the child was reaped.
        var lifeline: [Int32]?
        if command.lifeline {
            do { lifeline = try closeOnExecPipes(1, for: line) } catch {
                pipes?.forEach { close($0) }
                throw error
            }
        }
        let spawned: (pid_t, Int32)
        do {
            var discard = false
            if case .discard = command.output { discard = true }
            let actions = try SpawnActions(
                output: pipes.map { ($0[1], $0[3]) }, discard: discard, workingDirectory: command.workingDirectory,
                lifeline: lifeline?[0])
            if endsWithThisThread, let setpriv = deathSignalSetter {
                spawned = actions.spawn(
                    setpriv, argv: ["setpriv", "--pdeathsig", "KILL", "--", executable] + command.arguments,
                    environment: command.environmentLines)
            } else {
                spawned = actions.spawn(
                    executable, argv: [command.executable] + command.arguments, environment: command.environmentLines)
            }
        } catch {
            pipes?.forEach { close($0) }
            lifeline?.forEach { close($0) }
            if case .cannotStart(_, let reason) = error { throw .cannotStart(command: line, reason: reason) }
            throw error
        }
        if let pipes {
            close(pipes[1])
            close(pipes[3])
        }
        if let lifeline { close(lifeline[0]) }
        let (pid, status) = spawned
        guard status == 0 else {
            if let lifeline { close(lifeline[1]) }
            if let pipes {
                close(pipes[0])
                close(pipes[2])
            }
            if status == ENOENT, let workingDirectory = command.workingDirectory,
                !FileManager.default.fileExists(atPath: workingDirectory)
            {
                throw .cannotStart(command: line, reason: "its folder \(workingDirectory) does not exist")
            }
            throw .cannotStart(command: line, reason: String(cString: strerror(status)))
        }
        let child = ChildProcess(processID: pid, commandLine: line, openStreams: pipes == nil ? 0 : 2)
        var slot: Int?
        if case .bound(let forwards) = command.lifetime {
            slot = ChildProcessGroups.register(pid, forwardsSignals: forwards)
        }
        if let pipes, case .stream(let deliver) = command.output {
            child.read(pipes[0], isError: false, deliver)
            child.read(pipes[2], isError: true, deliver)
        }
        child.reap(slot: slot, killsLeftovers: slot != nil, lifeline: lifeline?[1], onExit: onExit)
        return child
    }

    /// `count` pipes, every end close-on-exec, as `[read, write, read, write, ...]`; on a failure
    /// the ones already made are closed.
    private static func closeOnExecPipes(_ count: Int, for line: String) throws(ChildProcessError) -> [Int32] {
        var descriptors = [Int32](repeating: -1, count: 2 * count)
        for index in 0..<count {
            let made = descriptors.withUnsafeMutableBufferPointer { pipe($0.baseAddress! + 2 * index) }
            guard made == 0 else {
                let reason = "no pipe: \(String(cString: strerror(errno)))"
                descriptors.filter { $0 >= 0 }.forEach { close($0) }
                throw .cannotStart(command: line, reason: reason)
            }
        }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return descriptors
    }

    /// util-linux's `setpriv`, which sets the parent-death signal and runs a command; nil where there is none.
    static let deathSignalSetter: String? = {
        #if os(Linux)
            for path in ["/usr/bin/setpriv", "/bin/setpriv"] where access(path, X_OK) == 0 { return path }
            return ChildCommand.find("setpriv")
        #else
            return nil
        #endif
    }()

    /// Its exit status once it was reaped and its output read.
    package var exitStatus: Int32? { state.withLock { $0.openStreams == 0 ? $0.status : nil } }

    /// Waits until it ended; its exit status.
    @discardableResult
    package func wait() -> Int32 {
        state.wait { $0.openStreams == 0 ? $0.status : nil }
    }

    /// Waits until it ended or `deadline` passed (nil).
    package func wait(until deadline: Date) -> Int32? {
        state.wait(until: { $0.openStreams == 0 ? $0.status : nil }, deadline: deadline)
    }

    /// Sends `signalNumber` to its whole process group, unless it was reaped already.
    package func signal(_ signalNumber: Int32) {
        let group = processID
        state.withLock { if $0.status == nil { kill(-group, signalNumber) } }
    }

    /// Ends it and waits until it has gone: SIGTERM to its group, then SIGKILL after `grace`
    /// seconds.
    @discardableResult
    package func terminate(grace: Double = 3) -> Int32 {
        signal(SIGTERM)
        if let status = wait(until: Date() + grace) { return status }
        signal(SIGKILL)
        return wait()
    }

    private func read(_ descriptor: Int32, isError: Bool, _ deliver: @escaping @Sendable ([UInt8], Bool) -> Void) {
        let state = self.state
        DetachedThread.start(name: "flowpkg.child.out") {
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { readDescriptor(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                deliver(Array(buffer[..<count]), isError)
            }
            close(descriptor)
            state.withLock { $0.openStreams -= 1 }
        }
    }

    /// Waits for the child on a thread of its own. Once it ended, and before it is reaped (so
    /// its group id cannot be reused), what is left of its group gets SIGKILL.
    private func reap(slot: Int?, killsLeftovers: Bool, lifeline: Int32?, onExit: (@Sendable (Int32) -> Void)?) {
        let pid = processID, state = self.state
        DetachedThread.start(name: "flowpkg.child.wait") {
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
            let code = state.withLock { current -> Int32 in
                if killsLeftovers { kill(-pid, SIGKILL) }
                var raw: Int32 = 0
                while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
                let code = SpawnActions.exitStatus(fromWaitStatus: raw)
                current.status = code
                return code
            }
            if let slot { ChildProcessGroups.unregister(slot) }
            if let lifeline { close(lifeline) }
            _ = state.wait { $0.openStreams == 0 ? true : nil }
            onExit?(code)
        }
    }
}

/// `read(2)`, named apart from the method above.
private func readDescriptor(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
