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

/// What to start as a child process: the program, its arguments, what changes in its
/// environment, the secrets it gets (in its environment only), the folder it starts in and
/// where its output goes. ``ChildProcess`` starts it.
package struct ChildCommand: Sendable {
    /// Where the child's standard output and error go; its input is always `/dev/null`.
    package enum Output: Sendable {
        /// flowpkg's own standard output and error.
        case inherit
        /// Nowhere (`/dev/null`).
        case discard
        /// Read back through pipes: each chunk as it comes, on a thread of the runner's
        /// (`isError` for standard error). A pipe, read at once, never stalls a chatty child.
        case stream(@Sendable (_ bytes: [UInt8], _ isError: Bool) -> Void)
    }

    /// How long the child may live, relative to flowpkg.
    package enum Lifetime: Sendable {
        /// Its process group is killed when flowpkg exits, and gets flowpkg's SIGINT, SIGTERM
        /// and SIGHUP when `forwardsSignals` (a tool flowpkg waits for, such as luarocks).
        case bound(forwardsSignals: Bool)
        /// Outlives flowpkg (an editor the session page opens); only reaped.
        case detached
    }

    /// A path, or with `searchesPath` a name looked up on `PATH`.
    package var executable: String
    package var arguments: [String]
    /// Changes to flowpkg's environment: a nil value removes the variable.
    package var environment: [String: String?]
    /// Variables that carry a secret (a token). They go in the environment, which only this
    /// user can read; ``ChildProcess/start(_:onExit:)`` refuses a command whose arguments hold
    /// one of their values, since every local user can read a command line.
    package var secrets: [String: String]
    /// The folder the child starts in (nil: flowpkg's), set for the child alone: flowpkg never
    /// changes its own working directory, which its other threads share.
    package var workingDirectory: String?
    package var output: Output
    package var lifetime: Lifetime
    package var searchesPath: Bool
    /// Whether the child gets descriptor 3, the read end of a pipe whose write end only
    /// flowpkg holds: it reads end of file there once flowpkg is gone, however it ended
    /// (SIGKILL included), so it can end too without polling (``ChildCommand/lifelineDescriptor``).
    package var lifeline = false

    /// The descriptor a child started with ``lifeline`` reads its parent's end on.
    package static let lifelineDescriptor: Int32 = 3

    package init(
        _ executable: String, _ arguments: [String], environment: [String: String?] = [:],
        secrets: [String: String] = [:], workingDirectory: String? = nil, output: Output = .inherit,
        lifetime: Lifetime = .bound(forwardsSignals: true), searchesPath: Bool = false
    ) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.secrets = secrets
        self.workingDirectory = workingDirectory
        self.output = output
        self.lifetime = lifetime
        self.searchesPath = searchesPath
    }

    /// The command line as a person would type it, for messages (secrets are never on it).
    package var commandLine: String {
        ([executable] + arguments).map(Self.shellQuoted).joined(separator: " ")
    }

    /// The variable whose secret value is among the arguments, if any.
    var secretOnCommandLine: String? {
        for (name, value) in secrets.sorted(by: { $0.key < $1.key }) where !value.isEmpty {
            if ([executable] + arguments).contains(where: { $0.contains(value) }) { return name }
        }
        return nil
    }

    /// flowpkg's environment with the command's changes and secrets, as `NAME=VALUE` lines.
    var environmentLines: [String] {
        var merged: [String: String] = [:]
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                merged[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            cursor += 1
        }
        for (key, value) in environment { merged[key] = value ?? nil }
        for (key, value) in secrets { merged[key] = value }
        return merged.map { "\($0.key)=\($0.value)" }.sorted()
    }

    /// `text` as a POSIX shell reads it back: plain when it is safe, else in single quotes.
    package static func shellQuoted(_ text: String) -> String {
        let safe =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy {
                $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_./=:,+@%".unicodeScalars.contains($0)
            }
        return safe ? text : "'" + text.replacingAll("'", with: "'\\''") + "'"
    }

    /// The program `name` on `PATH` (or `name` itself when it holds a `/`), if it is there.
    package static func find(_ name: String, path: String? = nil) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        let search = path ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in search.split(separator: ":") where !folder.isEmpty {
            let candidate = folder + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}

/// Why a child could not be started, or did not finish.
package enum ChildProcessError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotStart(command: String, reason: String)
    /// A secret's value is among the arguments (the variable is named, never the value).
    case secretOnCommandLine(command: String, variable: String)
    /// It was still running at its deadline; its process group was killed.
    case timedOut(command: String, seconds: Double)
    /// flowpkg received `signal` (SIGINT, SIGTERM, SIGHUP) while it ran; its process group got
    /// the signal too.
    case interrupted(command: String, signal: Int32)

    package var description: String {
        switch self {
        case let .cannotStart(command, reason): return "cannot start '\(command)': \(reason)"
        case let .secretOnCommandLine(command, variable):
            return "'\(command)' was not started: the secret in \(variable) is on its command line, "
                + "which every local user can read; it goes in the environment only"
        case let .timedOut(command, seconds):
            let shown = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
            return "'\(command)' did not finish within \(shown) seconds and was stopped"
        case let .interrupted(command, signal):
            return "'\(command)' was stopped: flowpkg received signal \(signal)"
        }
    }
}
