import Foundation

/// `python3 -m http.server` serving a folder on a free loopback port, as any static web
/// server would serve an update feed; stopped when the test ends.
final class StaticFeedServer {
    let process = Process()
    let port: Int
    private let output: Pipe

    init(folder: URL) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // Port 0: the system picks a free port, and the server prints it (unbuffered with -u).
        process.arguments = [
            "python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", folder.path,
        ]
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

    func stop() {
        output.fileHandleForReading.readabilityHandler = nil
        if process.isRunning {
            // SIGKILL: a process started from a test's worker thread inherits its blocked
            // signal mask, so SIGTERM would wait forever.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}
