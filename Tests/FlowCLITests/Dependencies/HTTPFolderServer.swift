import FlowTestSupport
import Foundation

/// A folder served over HTTP on 127.0.0.1 by Python's http.server: a rocks server by URL.
final class HTTPFolderServer {
    let http: BackgroundFlowpkg
    let url: String

    struct NotServing: Error { var output: String }

    init(serving folder: URL, in scratch: URL) throws {
        http = try BackgroundFlowpkg(
            ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", folder.path],
            in: scratch, executable: URL(fileURLWithPath: "/usr/bin/python3"))
        var port: String?
        _ = http.waitFor { stdout, _ in
            port = stdout.split(separator: "\n").first { $0.hasPrefix("Serving HTTP on ") }
                .flatMap { $0.split(separator: " ").dropFirst(5).first.map(String.init) }
            return port != nil
        }
        guard let port else {
            if http.process.isRunning { kill(http.process.processIdentifier, SIGKILL) }
            throw NotServing(output: http.stdout + http.stderr)
        }
        url = "http://127.0.0.1:\(port)"
    }

    /// SIGKILL: the test runner's threads block SIGINT and SIGTERM, and a child inherits the mask.
    func stop() {
        if http.process.isRunning { kill(http.process.processIdentifier, SIGKILL) }
        http.process.waitUntilExit()
    }
}
