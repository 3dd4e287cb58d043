import FlowHTTP
import FlowLiveProtocol
import FlowPackage
import FlowSupport
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

/// What `flowpkg serve` needs to start.
public struct LiveServerOptions: Sendable {
    public var host: String
    public var port: UInt16
    public var token: String
    /// Poll the file system even where inotify is available.
    public var forcePolling: Bool
    /// The header deadline and the connection budgets.
    public var limits: LiveConnectionLimits
    /// Whether the log gets one line per HTTP request (`serve --verbose`); changes, refusals
    /// of a malformed report and what programs send are logged either way.
    public var logsRequests: Bool
    /// Where the session page's links to a file and line go.
    public var editor: EditorLinks = .vscode

    public init(
        host: String = "127.0.0.1", port: UInt16 = LiveProtocol.defaultPort, token: String,
        forcePolling: Bool = false, limits: LiveConnectionLimits = LiveConnectionLimits(), logsRequests: Bool = true
    ) {
        self.host = host
        self.port = port
        self.token = token
        self.forcePolling = forcePolling
        self.limits = limits
        self.logsRequests = logsRequests
    }

    /// Whether `host` only accepts connections from this machine: `localhost`, 127.0.0.0/8,
    /// `::1` however it is spelt, or an IPv4 loopback address mapped into IPv6.
    public var isLoopback: Bool {
        if host == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes == [UInt8](repeating: 0, count: 15) + [1] { return true }
        return bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
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
        return (0..<16).map { _ in String(printf: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}

/// The live development source: serves a project folder as it is on disk now, over HTTP on
/// loopback by default, to hosts that present the token, and pushes changes as they happen.
public final class LiveServer: Sendable {
    public let project: LiveProject
    public let options: LiveServerOptions
    /// The listener, set by `start()`.
    private let listener = Locked<HTTPServer?>(nil)
    let events: EventBroadcaster
    /// Debug requests and messages between `flowpkg dap` and the programs (DebugRelay.swift).
    private let debugRelay = DebugRelay()
    /// Test runs between `flowpkg test --live` (or dev's `t` key) and the programs (TestRelay.swift).
    let testRelay = TestRelay()
    let log: @Sendable (String) -> Void
    private let watcher: FileWatcher
    /// What programs sent back, and where it goes as it arrives.
    let sessions: ProgramSessions
    private let onEvents: @Sendable ([SessionEvent]) -> Void
    let validation: ValidationCache

    /// - Parameters:
    ///   - log: one line per connection and per change pushed.
    ///   - onEvents: the events a program sends back (output, errors, reloads, loads), one
    ///     report's at a time, in order.
    ///   - onScan: each scan after a save that changed something or failed, once its change
    ///     went out (`flowpkg dev` validates then, and starts an ended program again).
    ///   - paths: how files are named in what the server logs and the page shows (default:
    ///     relative to the current folder, as `validate` names them).
    public init(
        projectAt root: URL, options: LiveServerOptions, log: @escaping @Sendable (String) -> Void,
        onEvents: @escaping @Sendable ([SessionEvent]) -> Void = { _ in },
        onScan: @escaping @Sendable (LiveProject.ScanResult) -> Void = { _ in },
        paths: ProjectPaths? = nil
    ) throws {
        let project = try LiveProject(root: root)
        let paths = paths ?? ProjectPaths(root: root)
        self.project = project
        events = EventBroadcaster(revision: project.manifest.revision)
        self.options = options
        self.log = log
        self.onEvents = onEvents
        self.paths = paths
        let editor = options.editor, token = options.token
        sessions = ProgramSessions(
            root: root, paths: paths,
            link: { path, line in editor.href(path: path, line: line, column: nil, token: token) },
            moduleFile: { name in
                project.manifest.modules.first { $0.name.rawValue == name }?.file.map { paths.root + "/" + $0 }
            })
        validation = ValidationCache(
            root: root, paths: paths,
            link: { path, line, column in editor.href(path: path, line: line, column: column, token: token) })
        let events = self.events
        watcher = FileWatcher(root: root, folders: { project.watchedFolders }, forcePolling: options.forcePolling) {
            let result = project.rescan()
            switch result {
            case .unchanged: return
            case .changed(let change):
                let count = events.send(change)
                log("change r\(change.revision): \(Self.summary(of: change)) → \(count) client\(count == 1 ? "" : "s")")
            case .failed(let diagnostics):
                let first =
                    diagnostics.first.map { "\($0.file.map(paths.shown) ?? ""): \($0.message)" } ?? "unknown error"
                log("project does not load now, still serving the last good state: \(first)")
            }
            onScan(result)
        }
    }

    /// How files are named in the log and on the page.
    public let paths: ProjectPaths

    /// The port it listens on, once `start()` has returned.
    public var listeningPort: UInt16? {
        listener.withLock { $0?.port }
    }

    /// Connections being served now, event streams included (for tests).
    var openConnections: Int { listener.withLock { $0 }?.openConnections ?? 0 }

    /// Starts listening and watching; returns once connections are accepted, or throws
    /// `LiveServerError` (the port is taken, the address is not this machine's).
    public func start() throws {
        let listener: HTTPServer
        do {
            listener = try HTTPServer(
                host: options.host, port: options.port, limits: options.limits,
                isAuthorized: { [options] request in Self.carriesToken(request, options.token) },
                handler: { [self] request in respond(to: request) })
        } catch {
            throw LiveServerError(options: options, failure: error)
        }
        self.listener.withLock { $0 = listener }
        listener.start()
        watcher.start()
    }

    /// Stops watching, ends every event stream and closes the listening socket.
    public func stop() {
        watcher.stop()
        events.finishAll()
        debugRelay.finishAll()
        testRelay.finishAll()
        listener.withLock { $0 }?.stop()
    }

    /// The session page's address, with the token, once `start()` has returned.
    public func sessionPageURL(base: String) -> String {
        base + LiveProtocol.sessionPagePath + "?token=" + options.token
    }

    private func respond(to request: HTTPRequest) -> HTTPResponse {
        // DNS rebinding: a page of attacker.example resolved to 127.0.0.1 sends its own name.
        if let host = request.headers["host"], !Self.acceptsHost(host, listeningOn: options.host) {
            log("\(request.peer) \(LogText.escaped(request.method)) \(LogText.escaped(request.path)) → 403 (Host)")
            return HTTPResponse.error(
                403, "the Host header names '\(host)': the live source answers loopback names and addresses only")
        }
        return authorized(request) {
            if let answer = debugRelay.respond(to: request) { return answer }
            if let answer = testRelay.respond(to: request) { return answer }
            if request.path == LiveProtocol.reportPath {
                guard request.method == "POST" else {
                    return HTTPResponse.error(405, "\(LiveProtocol.reportPath) takes POST with a JSON report")
                }
                return receiveReport(request)
            }
            guard request.method == "GET" else {
                return HTTPResponse.error(
                    405, "the live source answers GET, and POST at \(LiveProtocol.reportPath)")
            }
            switch request.path {
            case LiveProtocol.sessionPagePath:
                var page = HTTPResponse(
                    status: 200, contentType: "text/html; charset=utf-8",
                    body: .bytes(Array(SessionPage.html(snapshot: sessionState()).utf8)))
                page.headers = SessionPage.headers
                return page
            case LiveProtocol.sessionStatePath:
                let body = try JSONEncoder.live.encode(sessionState())
                return HTTPResponse(status: 200, contentType: "application/json", body: .bytes([UInt8](body)))
            case LiveProtocol.manifestPath:
                let body = try JSONEncoder.live.encode(project.manifest)
                return HTTPResponse(status: 200, contentType: "application/json", body: .bytes([UInt8](body)))
            case LiveProtocol.modulePath:
                let name = request.query["name"] ?? ""
                guard let bytes = try project.moduleData(named: name) else {
                    return HTTPResponse.error(404, "no module named '\(name)' in the project")
                }
                return HTTPResponse(status: 200, contentType: "text/x-lua", body: .bytes(bytes))
            case LiveProtocol.resourcePath:
                let name = request.query["name"] ?? "", type = request.query["type"] ?? ""
                guard let bytes = try project.resourceData(name: name, type: type) else {
                    return HTTPResponse.error(404, "no resource named '\(name)' of type '\(type)' in the project")
                }
                return HTTPResponse(status: 200, contentType: "application/octet-stream", body: .bytes(bytes))
            case LiveProtocol.scriptPath:
                let path = request.query["path"] ?? ""
                guard let bytes = try project.scriptData(atPath: path) else {
                    return HTTPResponse.error(404, "no script '\(path)' in the project")
                }
                return HTTPResponse(status: 200, contentType: "text/x-lua", body: .bytes(bytes))
            case Self.openPath:
                return openInEditor(request)
            case LiveProtocol.eventsPath:
                return HTTPResponse(
                    status: 200, contentType: "text/event-stream",
                    body: .events(events.subscribe()))
            default:
                return HTTPResponse.error(
                    404,
                    "unknown path; the live source serves \(LiveProtocol.manifestPath), "
                        + "\(LiveProtocol.modulePath), \(LiveProtocol.resourcePath), \(LiveProtocol.scriptPath), "
                        + "\(LiveProtocol.eventsPath), "
                        + "\(LiveProtocol.reportPath), \(LiveProtocol.sessionStatePath) and \(LiveProtocol.sessionPagePath)"
                )
            }
        }
    }

    /// Takes a program's report: refused with a clear message when it is not a report within
    /// the limits; otherwise recorded and handed on event by event.
    private func receiveReport(_ request: HTTPRequest) -> HTTPResponse {
        let report: LiveReport
        do {
            report = try JSONDecoder().decode(LiveReport.self, from: Data(request.body))
        } catch {
            return HTTPResponse.error(
                400, "the report is not a flowpkg live report in JSON: \(Self.reason(error))")
        }
        if report.events.count > LiveProtocol.maxReportEvents {
            return HTTPResponse.error(
                413, "the report holds \(report.events.count) events, more than \(LiveProtocol.maxReportEvents)")
        }
        if let problem = report.events.lazy.compactMap(\.problem).first {
            return HTTPResponse.error(400, "the report is refused: \(problem)")
        }
        onEvents(sessions.receive(report))
        return HTTPResponse(status: 204, contentType: "application/json", body: .bytes([]))
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): return context.debugDescription
        case DecodingError.keyNotFound(let key, _): return "'\(key.stringValue)' is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "\(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        default: return "\(error)"
        }
    }

    /// Runs `respond` only for a request that carries the token; logs the outcome in one line
    /// (but not the reports and page polls that went well: they come every second).
    private func authorized(_ request: HTTPRequest, _ respond: () throws -> HTTPResponse) -> HTTPResponse {
        let response: HTTPResponse
        // Checked once, by the server, when the request's head came in (it chose its budget).
        let authorized = request.isAuthorized
        if authorized {
            do {
                response = try respond()
            } catch {
                response = HTTPResponse.error(500, "the project cannot be read now: \(error)")
            }
        } else {
            response = HTTPResponse.error(
                401,
                "missing or wrong token: send 'Authorization: Bearer <token>' "
                    + "with the token flowpkg serve printed")
        }
        let quiet = [LiveProtocol.reportPath, LiveProtocol.sessionStatePath].contains(request.path)
        if quiet && response.status < 300 { return response }
        // A refused report is worth a line whatever the setting: a program's output went missing.
        let refusedReport = authorized && request.path == LiveProtocol.reportPath && response.status >= 400
        guard options.logsRequests || refusedReport else { return response }
        var line = Self.logLine(for: request, authorized: authorized, status: response.status)
        // A token holder's refused request says why (a malformed report, say); one without
        // the token is only the path, as the listener logs it.
        if authorized, response.status >= 400, let message = response.errorMessage {
            line += ": " + LogText.escaped(message)
        }
        log(line)
        return response
    }

    /// Whether `request` carries `Authorization: Bearer <token>`, or, for the session page's
    /// GETs only, `?token=<token>` (a browser cannot put a header on the page's own address).
    static func carriesToken(_ request: HTTPRequest, _ token: String) -> Bool {
        var presented = request.headers["authorization"] ?? ""
        if presented.isEmpty, request.method == "GET",
            request.path == LiveProtocol.sessionPagePath || request.path == LiveProtocol.sessionStatePath
                || request.path == openPath,
            let query = request.query["token"]
        {
            presented = "Bearer " + query
        }
        return constantTimeEqual(presented, "Bearer " + token)
    }

    /// One log line for a request: every part the client chose is escaped (`LogText`), so no
    /// request can end the line or drive the terminal; without the token, only the method and
    /// the path as sent are shown, not the decoded name it asked for.
    static func logLine(for request: HTTPRequest, authorized: Bool, status: Int) -> String {
        var target = LogText.escaped(request.path)
        if authorized {
            if let name = request.query["name"] { target += " \(LogText.escaped(name))" }
            if let type = request.query["type"], !type.isEmpty { target += ".\(LogText.escaped(type))" }
        }
        return "\(request.peer) \(LogText.escaped(request.method)) \(target) → \(status)"
    }

    /// Whether a request's `Host` header may name this server: `localhost`, an IP address
    /// (a page cannot rebind an address, only a name), or the very name it listens on.
    static func acceptsHost(_ header: String, listeningOn listening: String) -> Bool {
        var name = Substring(header.lowercased())
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return false }
            name = name[name.index(after: name.startIndex)..<close]
            return name.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        if let colon = name.lastIndex(of: ":") { name = name[..<colon] }
        if name == "localhost" || name == listening.lowercased() { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in UInt8(part).map { String($0) == part } ?? false }
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
        if !change.modules.isEmpty { parts.append("modules " + change.modules.map(\.rawValue).joined(separator: ", ")) }
        if !change.resources.isEmpty {
            parts.append("resources " + change.resources.map { "\($0.name).\($0.type)" }.joined(separator: ", "))
        }
        if !change.removedModules.isEmpty {
            parts.append("removed modules " + change.removedModules.map(\.rawValue).joined(separator: ", "))
        }
        if !change.removedResources.isEmpty {
            parts.append("removed resources " + change.removedResources.map(\.name).joined(separator: ", "))
        }
        if !change.scripts.isEmpty { parts.append("scripts " + change.scripts.joined(separator: ", ")) }
        if !change.removedScripts.isEmpty {
            parts.append("removed scripts " + change.removedScripts.joined(separator: ", "))
        }
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

    init(options: LiveServerOptions, failure: PlainSocket.Failure) {
        host = options.host
        port = options.port
        isPortInUse = failure.code == EADDRINUSE
        reason =
            failure.code == EADDRINUSE
            ? "the port is in use: stop the other server or choose another --port"
            : failure.code == EADDRNOTAVAIL
                ? "\(failure.reason): the address is not one of this machine's"
                : failure.reason
    }

    /// Whether another program listens on that port already (`flowpkg dev` tries the next).
    public var isPortInUse: Bool

    public var description: String { "cannot listen on \(host):\(port): \(reason)" }
}
