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

/// POSTs one report to the live source and reads the status: the only request a program sends
/// with a body. FlowHTTP's `HTTPConnection` speaks GET only, and this needs a head, a JSON body
/// and a status line back, so it is written over `PlainSocket` here rather than adding a
/// method to the connection layer another change is reworking.
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
        guard let host = baseURL.host else { return .unreachable }
        let body = report.jsonBytes
        let port = baseURL.port ?? 80
        let socket: PlainSocket
        do {
            socket = try PlainSocket.connect(host: host, port: port, timeout: timeout)
        } catch {
            return .unreachable
        }
        defer { socket.shutDown() }
        socket.setTimeouts(send: timeout, receive: timeout)
        let basePath = baseURL.path.hasSuffix("/") ? String(baseURL.path.dropLast()) : baseURL.path
        let hostHeader = baseURL.port.map { "\(host):\($0)" } ?? host
        let head =
            "POST \(basePath)\(LiveProtocol.reportPath) HTTP/1.1\r\nHost: \(hostHeader)\r\n"
            + "Authorization: Bearer \(token)\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        do {
            try socket.send(Array(head.utf8) + body)
        } catch {
            return .unreachable
        }
        let reader = SocketReader(socket, deadline: Date(timeIntervalSinceNow: timeout))
        guard let answer = try? reader.head() else { return .unreachable }
        let parts = answer.startLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { return .unreachable }
        if (200..<300).contains(status) { return .sent }
        var message = "no details"
        if let length = answer.headers["content-length"].flatMap({ Int($0) }), length > 0, length < 64 * 1024 {
            var bytes: [UInt8] = []
            while bytes.count < length, let piece = try? reader.some(max: length - bytes.count) { bytes += piece }
            message =
                (try? JSONDecoder().decode([String: String].self, from: Data(bytes)))?["error"] ?? message
        }
        return .refused(status: status, message: message)
    }
}
