import FlowLiveProtocol
import FlowLoader
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

/// The development monitor of a debug host (CodeFlow's context monitor): connects to a live
/// source, hands the loader a `LiveSource`, and reports every change the source pushes.
///
/// A release host never creates one, so nothing listens and nothing remote is read.
public final class DevelopmentMonitor: Sendable {
    public struct Configuration: Sendable {
        /// The live source, e.g. `http://127.0.0.1:7315`.
        public var url: URL
        public var token: String
        /// How long start-up waits for the live source before going on with the embedded package.
        public var connectionTimeout: TimeInterval
        /// How long one request may take once connected.
        public var requestTimeout: TimeInterval
        /// Where the host sees the project folder, when it does (`flowpkg run DIR --live`):
        /// the files the live source names are then named under it in Lua's errors
        /// (`Hello/Sources/Main.lua:3:`), as `validate` and a run from the folder name them.
        /// Nil keeps the live source's names, relative to the project.
        public var projectFolder: String?
        /// Whether a debugger (`flowpkg dap`'s `attach`) may attach through the live source and
        /// its token: breakpoints, stepping, variables and the session page's console. Nothing
        /// new listens: the debug traffic rides the live channel.
        public var acceptsDebugger: Bool
        /// How long start-up waits for a debugger to attach and finish its configuration
        /// before the start module runs (CodeFlow's `connectionTimeout`; `flowpkg run
        /// --wait-for-debugger`). Nil: no wait; a debugger can still attach later. After the
        /// wait the program runs as it would have.
        public var waitForDebugger: TimeInterval?
        /// How long the program, stopped on a breakpoint, waits for a debugger that has gone
        /// silent before it runs on without it and its breakpoints (one that has gone away is
        /// noticed at once: its stream through the live source ends).
        public var debuggerSilenceTimeout: TimeInterval = 600
        /// Whether the live source shows a reloaded module's syntax errors itself (`flowpkg dev`
        /// validates each save and prints them): the session's log then leaves them out, so
        /// the terminal shows each once. They still go back to the live source as reports.
        public var sourceShowsSyntaxErrors = false

        public init(
            url: URL, token: String, connectionTimeout: TimeInterval = 2, requestTimeout: TimeInterval = 10,
            acceptsDebugger: Bool = true, waitForDebugger: TimeInterval? = nil
        ) {
            self.url = url
            self.token = token
            self.connectionTimeout = connectionTimeout
            self.requestTimeout = requestTimeout
            self.acceptsDebugger = acceptsDebugger
            self.waitForDebugger = waitForDebugger
        }
    }

    /// How a connection attempt ended.
    public enum Outcome: Sendable {
        case connected(LiveSource)
        /// Nothing answered within the connection timeout.
        case notConnected(String)
        /// Something answered but must not be used: another identifier, or the token was refused.
        case refused(String)

        /// The policy's view of it.
        public var situation: SourceSituation.Monitor {
            switch self {
            case .connected: return .connected
            case .notConnected: return .notConnected
            case .refused(let reason): return .refused(reason: reason)
            }
        }
    }

    public let configuration: Configuration
    private let client: LiveHTTPClient
    /// Whether `stop()` ran, and the change stream once `watchChanges` opened it.
    private let state = Locked((isStopped: false, stream: EventStream?.none))

    public init(configuration: Configuration) {
        self.configuration = configuration
        client = LiveHTTPClient(
            baseURL: configuration.url, token: configuration.token,
            timeout: configuration.requestTimeout)
    }

    /// Tries to reach the live source until the connection timeout runs out.
    public func connect(expecting identifier: PackageIdentifier) -> Outcome {
        let deadline = Date().addingTimeInterval(configuration.connectionTimeout)
        var lastProblem = "nothing answered"
        repeat {
            switch attempt(expecting: identifier, timeout: max(0.05, deadline.timeIntervalSinceNow)) {
            case .connected(let source): return .connected(source)
            case .refused(let reason): return .refused(reason)
            case .notConnected(let reason):
                lastProblem = reason
                let pause = min(0.1, deadline.timeIntervalSinceNow)
                if pause > 0 { DetachedThread.sleep(seconds: pause) }
            }
        } while Date() < deadline && !stopped
        let seconds = String(printf: "%g", configuration.connectionTimeout)
        return .notConnected(
            "no live source at \(configuration.url.absoluteString) within \(seconds) s (\(lastProblem))")
    }

    /// Keeps trying in the background after a start-up that did not connect; calls `onConnect`
    /// once, on a background thread, when a live source with that identifier answers.
    public func connectLater(
        expecting identifier: PackageIdentifier, retryInterval: TimeInterval = 0.5,
        onConnect: @escaping @Sendable (LiveSource) -> Void,
        onRefused: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        DetachedThread.start { [self] in
            while !stopped {
                switch attempt(expecting: identifier, timeout: max(retryInterval, 2)) {
                case .connected(let source): onConnect(source); return
                case .refused(let reason): onRefused(reason); return
                case .notConnected: DetachedThread.sleep(seconds: retryInterval)
                }
            }
        }
    }

    /// Opens the change stream. `onOpen` runs once with the source's revision when the stream
    /// is open, `onChange` for each change, on a background thread; `onEnd` once when the
    /// stream ends (the source stopped or the connection dropped).
    public func watchChanges(
        onOpen: @escaping @Sendable (Int) -> Void = { _ in },
        onChange: @escaping @Sendable (LiveChange) -> Void,
        onEnd: @escaping @Sendable (String) -> Void
    ) {
        let stream = EventStream(
            url: client.url(LiveProtocol.eventsPath), headers: [client.authorization],
            connectTimeout: configuration.requestTimeout,
            onHello: onOpen, onChange: onChange, onEnd: onEnd)
        state.withLock { $0.stream = stream }
        stream.start()
    }

    /// Closes the change stream and stops any background connection attempts.
    public func stop() {
        let stream = state.withLock { state -> EventStream? in
            state.isStopped = true
            return state.stream
        }
        stream?.cancel()
    }

    private var stopped: Bool { state.withLock { $0.isStopped } }

    private func attempt(expecting identifier: PackageIdentifier, timeout: TimeInterval) -> Outcome {
        do {
            let manifest = try client.manifest(timeout: timeout)
            guard manifest.identifier == identifier.rawValue else {
                return .refused(
                    "live source \(configuration.url.absoluteString) serves '\(manifest.identifier)', "
                        + "not '\(identifier.rawValue)': serve the project of this package")
            }
            return .connected(
                LiveSource(
                    client: client, manifest: manifest, identifier: identifier,
                    projectFolder: configuration.projectFolder))
        } catch {
            switch error {
            case .unauthorized, .malformed: return .refused(error.description)
            case .unreachable, .status: return .notConnected(error.description)
            }
        }
    }
}
