import Foundation

/// A `flowpkg` process left running (a live server, a watching run), with its output in files
/// that tests can read while it runs.
final class BackgroundFlowpkg {
    let process = Process()
    let stdoutURL: URL
    let stderrURL: URL

    /// `executable` is `flowpkg` unless a test runs another program it built (a snippet).
    init(
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

    var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// Waits until `condition` holds for what the process printed, or `timeout` seconds pass.
    @discardableResult
    func waitFor(timeout: TimeInterval = 10, _ condition: (_ stdout: String, _ stderr: String) -> Bool) -> Bool {
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
    func interrupt() -> Int32 {
        if process.isRunning { process.interrupt() }
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}

/// `flowpkg serve` on a free loopback port for one project.
final class ServedProject {
    static let token = "live-test-token"
    let server: BackgroundFlowpkg
    let url: String

    init(_ root: URL, in directory: URL, token: String = ServedProject.token, extra: [String] = []) throws {
        server = try BackgroundFlowpkg(["serve", root.path, "--port", "0", "--token", token] + extra, in: directory)
        var found: String?
        server.waitFor { stdout, _ in
            found = stdout.split(separator: "\n").first { $0.hasPrefix("Serving ") }
                .flatMap { $0.components(separatedBy: " at ").last }
            return found != nil
        }
        guard let found else { throw FixtureError(message: "flowpkg serve did not start:\n\(server.stderr)") }
        url = found
    }
}
