import FlowTestSupport
import Foundation

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
