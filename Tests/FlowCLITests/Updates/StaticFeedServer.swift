import FlowTestSupport
import Foundation

/// `Tests/Fixtures/feed_server.py` serving a folder on a free loopback port, as any static web
/// server or CDN would serve an update feed (byte ranges included), or as a hostile one does
/// with `mode`; stopped when the test ends. `log` lists what it answered.
final class StaticFeedServer {
    let process = Process()
    let port: Int
    private let output: Pipe
    let logFile: URL

    static let script = CLITestFolder.url
        .appendingPathComponent("../Fixtures/feed_server.py").standardizedFileURL

    /// One answer the server sent.
    struct Answer: Decodable {
        var path: String
        var range: String?
        var status: Int
        var bytes: Int
    }

    init(folder: URL, mode: String = "normal", target: String = "package", extra: [String] = []) throws {
        logFile = try Scratch("feed-log").path("log")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // Port 0: the system picks a free port, and the server prints it.
        process.arguments =
            [
                "python3", "-u", Self.script.path, "--directory", folder.path, "--log", logFile.path, "--mode", mode,
                "--target", target,
            ] + extra
        output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        let handle = output.fileHandleForReading
        while !text.contains("\n") {
            let data = handle.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        guard let range = text.range(of: "port "), let port = Int(text[range.upperBound...].prefix { $0.isNumber })
        else {
            kill(process.processIdentifier, SIGKILL)
            throw FixtureError(message: "http.server did not say its port: \(text)")
        }
        self.port = port
        // Keep reading its log so it never blocks on a full pipe.
        handle.readabilityHandler = { handle in _ = handle.availableData }
    }

    var url: String { "http://127.0.0.1:\(port)" }

    /// The answers once `count` of them are logged (the server logs each after sending it,
    /// so the client may be done a moment before the line is there); at most 10 s.
    func answers(atLeast count: Int) -> [Answer] {
        let end = Date(timeIntervalSinceNow: 10)
        var seen = answers
        while seen.count < count, Date() < end {
            usleep(20_000)
            seen = answers
        }
        return seen
    }

    /// What the server answered so far, in order.
    var answers: [Answer] {
        guard let text = try? String(contentsOf: logFile, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(Answer.self, from: Data($0.utf8)) }
    }

    func stop() {
        output.fileHandleForReading.readabilityHandler = nil
        if process.isRunning {
            // SIGKILL: a process started from a test's worker thread inherits its blocked
            // signal mask, so SIGTERM would wait forever.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: logFile)
    }

    deinit { stop() }
}
