import FlowLoader
import FlowPackage
import FlyingFox
import FlyingSocks
import Foundation

/// What `flowpkg serve` needs to start.
public struct LiveServerOptions: Sendable {
    public var host: String
    public var port: UInt16
    public var token: String
    /// Poll the file system even where inotify is available.
    public var forcePolling: Bool

    public init(host: String = "127.0.0.1", port: UInt16 = LiveProtocol.defaultPort, token: String,
                forcePolling: Bool = false) {
        self.host = host
        self.port = port
        self.token = token
        self.forcePolling = forcePolling
    }

    /// Whether `host` only accepts connections from this machine.
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// Whether `host` is something the server can listen on: `localhost` or an IP address.
    public static func isAddress(_ host: String) -> Bool {
        if host == "localhost" { return true }
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    /// A fresh random token: 32 hex digits from the system's secure generator.
    public static func generateToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}

/// The live development source: serves a project folder as it is on disk now, over HTTP on
/// loopback by default, to hosts that present the token, and pushes changes as they happen.
public final class LiveServer: Sendable {
    public let project: LiveProject
    public let options: LiveServerOptions
    private let server: HTTPServer
    private let events = EventBroadcaster()
    private let log: @Sendable (String) -> Void
    private let watcher: FileWatcher

    /// - Parameter log: one line per connection and per change pushed.
    public init(projectAt root: URL, options: LiveServerOptions, log: @escaping @Sendable (String) -> Void) throws {
        let project = try LiveProject(root: root)
        self.project = project
        self.options = options
        self.log = log
        if options.host.contains(":") {
            server = HTTPServer(address: try sockaddr_in6.inet6(ip6: options.host, port: options.port), logger: .disabled)
        } else {
            let ip = options.host == "localhost" ? "127.0.0.1" : options.host
            server = HTTPServer(address: try sockaddr_in.inet(ip4: ip, port: options.port), logger: .disabled)
        }
        let events = self.events
        watcher = FileWatcher(root: root, folders: { project.watchedFolders }, forcePolling: options.forcePolling) {
            switch project.rescan() {
            case .unchanged: break
            case .changed(let change):
                let count = events.send(change)
                log("change r\(change.revision): \(Self.summary(of: change)) → \(count) client\(count == 1 ? "" : "s")")
            case .failed(let diagnostics):
                let first = diagnostics.first.map { "\($0.file ?? ""): \($0.message)" } ?? "unknown error"
                log("project does not load now, still serving the last good state: \(first)")
            }
        }
    }

    /// The address it listens on, once `start()` has returned.
    public var listeningPort: UInt16? {
        get async {
            switch await server.listeningAddress {
            case .ip4(_, let port), .ip6(_, let port): return port
            default: return nil
            }
        }
    }

    /// Starts listening and watching; returns once connections are accepted, or throws
    /// `LiveServerError` (the port is taken, the address is not this machine's).
    public func start() async throws {
        await addRoutes()
        let server = self.server
        let failure = FailureBox()
        Task {
            do { try await server.run() } catch { failure.set(error) }
        }
        let deadline = Date().addingTimeInterval(5)
        while await server.listeningAddress == nil {
            if let error = failure.error { throw LiveServerError(options: options, underlying: error) }
            if Date() > deadline { throw LiveServerError(options: options, underlying: SocketError.timeout(message: "no answer in 5 s")) }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        watcher.start()
    }

    /// Stops watching, ends every event stream and closes the listening socket.
    public func stop() async {
        watcher.stop()
        events.finishAll()
        await server.stop(timeout: 1)
    }

    private func addRoutes() async {
        let project = self.project
        await server.appendRoute(HTTPRoute(method: .GET, path: LiveProtocol.manifestPath)) { [self] request in
            try authorized(request) {
                let body = try JSONEncoder.live.encode(project.manifest)
                return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: body)
            }
        }
        await server.appendRoute(HTTPRoute(method: .GET, path: LiveProtocol.modulePath)) { [self] request in
            try authorized(request) {
                let name = request.query["name"] ?? ""
                guard let bytes = try project.moduleData(named: name) else {
                    return Self.error(.notFound, "no module named '\(name)' in the project")
                }
                return HTTPResponse(statusCode: .ok, headers: [.contentType: "text/x-lua"], body: Data(bytes))
            }
        }
        await server.appendRoute(HTTPRoute(method: .GET, path: LiveProtocol.resourcePath)) { [self] request in
            try authorized(request) {
                let name = request.query["name"] ?? "", type = request.query["type"] ?? ""
                guard let bytes = try project.resourceData(name: name, type: type) else {
                    return Self.error(.notFound, "no resource named '\(name)' of type '\(type)' in the project")
                }
                return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/octet-stream"], body: Data(bytes))
            }
        }
        await server.appendRoute(HTTPRoute(method: .GET, path: LiveProtocol.eventsPath)) { [self] request in
            try authorized(request) {
                let stream = events.subscribe(revision: project.manifest.revision)
                return HTTPResponse(
                    statusCode: .ok,
                    headers: [.contentType: "text/event-stream", HTTPHeader("Cache-Control"): "no-cache"],
                    body: HTTPBodySequence(from: EventBytes(stream: stream)))
            }
        }
        await server.appendRoute("*") { [self] request in
            try authorized(request) {
                Self.error(.notFound, "unknown path; the live source serves \(LiveProtocol.manifestPath), "
                           + "\(LiveProtocol.modulePath), \(LiveProtocol.resourcePath) and \(LiveProtocol.eventsPath)")
            }
        }
    }

    /// Runs `respond` only for a request that carries the token; logs the outcome in one line.
    private func authorized(_ request: HTTPRequest, _ respond: () throws -> HTTPResponse) throws -> HTTPResponse {
        let presented = request.headers[.authorization] ?? ""
        let expected = "Bearer " + options.token
        let response: HTTPResponse
        if Self.constantTimeEqual(presented, expected) {
            response = try respond()
        } else {
            response = Self.error(.unauthorized, "missing or wrong token: send 'Authorization: Bearer <token>' "
                                  + "with the token flowpkg serve printed")
        }
        var target = request.path
        if let name = request.query["name"] { target += " \(name)" }
        if let type = request.query["type"], !type.isEmpty { target += ".\(type)" }
        log("\(Self.peer(request)) \(request.method.rawValue) \(target) → \(response.statusCode.code)")
        return response
    }

    private static func peer(_ request: HTTPRequest) -> String {
        switch request.remoteAddress {
        case .ip4(let ip, let port)?: return "\(ip):\(port)"
        case .ip6(let ip, let port)?: return "[\(ip)]:\(port)"
        default: return "client"
        }
    }

    private static func error(_ status: HTTPStatusCode, _ message: String) -> HTTPResponse {
        let body = (try? JSONEncoder.live.encode(["error": message])) ?? Data()
        return HTTPResponse(statusCode: status, headers: [.contentType: "application/json"], body: body)
    }

    /// Compares secrets without stopping at the first difference, so timing tells nothing.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for index in 0..<max(x.count, y.count) {
            difference |= (index < x.count ? x[index] : 0) ^ (index < y.count ? y[index] : 0)
        }
        return difference == 0
    }

    static func summary(of change: LiveChange) -> String {
        var parts: [String] = []
        if !change.modules.isEmpty { parts.append("modules " + change.modules.joined(separator: ", ")) }
        if !change.resources.isEmpty { parts.append("resources " + change.resources.map { "\($0.name).\($0.type)" }.joined(separator: ", ")) }
        if !change.removedModules.isEmpty { parts.append("removed modules " + change.removedModules.joined(separator: ", ")) }
        if !change.removedResources.isEmpty { parts.append("removed resources " + change.removedResources.map(\.name).joined(separator: ", ")) }
        return parts.joined(separator: "; ")
    }
}

extension JSONEncoder {
    static var live: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}

/// The live server cannot listen where it was asked to.
public struct LiveServerError: Error, CustomStringConvertible {
    public var host: String
    public var port: UInt16
    public var reason: String

    init(options: LiveServerOptions, underlying: any Error) {
        host = options.host
        port = options.port
        switch underlying as? SocketError {
        case .failed(_, let number, let message)?:
            reason = number == EADDRINUSE ? "the port is in use: stop the other server or choose another --port"
                : number == EADDRNOTAVAIL ? "\(message): the address is not one of this machine's"
                : message
        case .timeout(let message)?: reason = message
        default: reason = "\(underlying)"
        }
    }

    public var description: String { "cannot listen on \(host):\(port): \(reason)" }
}

/// Carries the server task's failure to `start()`.
private final class FailureBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (any Error)?
    var error: (any Error)? { lock.withLock { stored } }
    func set(_ error: any Error) { lock.withLock { stored = error } }
}
