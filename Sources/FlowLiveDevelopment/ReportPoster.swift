import FlowHTTP
import FlowLiveProtocol
import FlowPackage
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

/// POSTs one report to the live source and reads the status, over FlowHTTP's client.
struct ReportPoster: Sendable {
    let baseURL: URL
    let token: String
    /// How long connecting, sending and the answer may take.
    var timeout: TimeInterval = 5

    /// How one POST ended.
    enum Outcome: Equatable {
        case sent
        case unreachable
        /// The server answered and refused it: sending it again would not help.
        case refused(status: Int, message: String)
    }

    func send(_ report: LiveReport) -> Outcome {
        let basePath = baseURL.path.hasSuffix("/") ? String(baseURL.path.dropLast()) : baseURL.path
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else { return .unreachable }
        components.path = basePath + LiveProtocol.reportPath
        guard let url = components.url else { return .unreachable }
        let connection: HTTPConnection
        let head: HTTPConnection.Head
        do {
            connection = try HTTPConnection.send(
                "POST", url,
                headers: [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")],
                body: report.jsonBytes, timeout: timeout, readTimeout: timeout)
            head = try connection.readHead()
        } catch {
            return .unreachable
        }
        defer { connection.cancel() }
        if (200..<300).contains(head.status) { return .sent }
        var message = "no details"
        if let body = try? connection.readBody(head, limit: 64 * 1024), !body.isEmpty {
            message = (try? JSONDecoder().decode([String: String].self, from: Data(body)))?["error"] ?? message
        }
        return .refused(status: head.status, message: message)
    }
}
