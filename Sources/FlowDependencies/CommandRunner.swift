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

/// What a finished command left: its exit status and everything it wrote.
public struct CommandOutput: Sendable {
    /// The command line as a person would type it, for messages.
    public var commandLine: String
    public var status: Int32
    public var standardOutput: String
    public var standardError: String

    public var succeeded: Bool { status == 0 }
    /// Both streams, for quoting in a message.
    public var combined: String { standardOutput + standardError }
}

/// Runs another program (LuaRocks) to completion with `posix_spawn`, its output captured in
/// temporary files, so a chatty tool can never fill a pipe and stall; Foundation's `Process`
/// is not in FoundationEssentials, which is all flowpkg links.
public enum CommandRunner {
    /// The program `name` on `PATH` (or `name` itself when it holds a `/`), if it is there.
    public static func find(_ name: String, path: String? = nil) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        let search = path ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in search.split(separator: ":") where !folder.isEmpty {
            let candidate = folder + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Runs `executable` with `arguments`, the environment changed by `environment` (a nil value
    /// removes the variable), and waits for it.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String?] = [:]
    ) throws(DependencyError) -> CommandOutput {
        let commandLine = ([executable] + arguments).map(shellQuoted).joined(separator: " ")
        let scratch =
            FileManager.default.temporaryDirectory.path
            + "/flowpkg-run-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let outPath = scratch + ".out"
        let errPath = scratch + ".err"
        defer {
            unlink(outPath)
            unlink(errPath)
        }
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value ?? nil }
        let envStrings = env.map { "\($0.key)=\($0.value)" }.sorted()

        #if canImport(Glibc)
            var actions = posix_spawn_file_actions_t()
        #else
            var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = envStrings.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw .commandFailed(
                command: commandLine, output: "cannot start it: \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { break }
        }
        let exitStatus: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        func read(_ path: String) -> String {
            FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
        return CommandOutput(
            commandLine: commandLine, status: exitStatus, standardOutput: read(outPath), standardError: read(errPath))
    }

    /// `text` as a POSIX shell reads it back: plain when it is safe, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let safe =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy {
                $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_./=:,+@%".unicodeScalars.contains($0)
            }
        return safe ? text : "'" + text.replacingAll("'", with: "'\\''") + "'"
    }
}
