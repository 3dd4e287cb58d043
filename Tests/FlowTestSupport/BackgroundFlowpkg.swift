import Foundation

/// A `flowpkg` process left running (a live server, a watching run), with its output in files
/// that tests can read while it runs.
public final class BackgroundFlowpkg {
    public let process = Process()
    public let stdoutURL: URL
    public let stderrURL: URL

    /// `executable` is `flowpkg` unless a test runs another program it built (a snippet).
    public init(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:],
        executable: URL = FlowpkgProcess.executable
    ) throws {
        let scratch = directory.appendingPathComponent("bg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        stdoutURL = scratch.appendingPathComponent("stdout")
        stderrURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    public var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// Waits until `condition` holds for what the process printed, or `timeout` seconds pass.
    @discardableResult
    public func waitFor(timeout: TimeInterval = 10, _ condition: (_ stdout: String, _ stderr: String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(stdout, stderr) { return true }
            if !process.isRunning { return condition(stdout, stderr) }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    /// Sends SIGINT, as Ctrl-C would, and waits for the exit status.
    @discardableResult
    public func interrupt() -> Int32 {
        if process.isRunning { process.interrupt() }
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}
