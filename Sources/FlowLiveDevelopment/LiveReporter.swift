import FlowLiveProtocol
import FlowLoader
import FlowPackage
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sends what a program does back to `flowpkg serve`: its output, errors, reloads and loaded
/// items, as `LiveReport`s POSTed from a thread of its own.
///
/// The program never waits for the developer's side: each call only appends to a bounded
/// queue (`capacity` events). When the queue is full the oldest event is dropped and counted,
/// and the count goes with the next report. A report that cannot be sent (the server stopped,
/// restarts) is kept and tried again every `retryInterval`, so a program reconnects by itself.
public final class LiveReporter: Sendable {
    public static let defaultCapacity = 10_000

    public let program: LiveProgram
    private let poster: ReportPoster
    private let retryInterval: TimeInterval
    private let log: @Sendable (String) -> Void
    private let queue: ReportQueue

    /// - Parameters:
    ///   - url: the live source, e.g. `http://127.0.0.1:7315`.
    ///   - token: the token `flowpkg serve` printed.
    ///   - program: who is talking (see ``thisProgram(identifier:version:digest:)``).
    ///   - capacity: the most events kept waiting to be sent.
    ///   - retryInterval: how long to wait before sending again after the live source did not answer.
    ///   - log: where the reporter's own warnings go.
    public init(
        url: URL, token: String, program: LiveProgram, capacity: Int = LiveReporter.defaultCapacity,
        retryInterval: TimeInterval = 0.5, log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.log = log
        self.program = program
        poster = ReportPoster(baseURL: url, token: token)
        queue = ReportQueue(capacity: max(1, capacity))
        self.retryInterval = retryInterval
        DetachedThread.start { [self] in sendLoop() }
    }

    /// A reporter for the live source a development monitor connects to.
    public convenience init(
        configuration: DevelopmentMonitor.Configuration, program: LiveProgram,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.init(url: configuration.url, token: configuration.token, program: program, log: log)
    }

    /// What to set as `LuaContext.Options.output`: everything Lua writes to stdout and stderr.
    public var outputHandler: @Sendable (_ isError: Bool, _ text: String) -> Void {
        { [self] isError, text in output(text, stream: isError ? .stderr : .stdout) }
    }

    /// This program as the server shows it: the identifier, this process and this machine.
    public static func thisProgram(identifier: String, version: String? = nil, digest: String? = nil) -> LiveProgram {
        var name = [CChar](repeating: 0, count: 256)
        let hostName =
            gethostname(&name, name.count) == 0
            ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "unknown"
        var system = utsname()
        uname(&system)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return LiveProgram(
            identifier: identifier, version: version, digest: digest, hostName: hostName,
            platform: "\(field(system.sysname)) \(field(system.machine))", processID: getpid())
    }

    // MARK: What the program tells

    /// Text the program wrote: complete lines are queued at once, a partial line when its
    /// end comes (or when `flush` is called), and a line longer than 16 KB is cut.
    public func output(_ text: String, stream: LiveEvent.Stream = .stdout) {
        let now = Date().timeIntervalSince1970
        queue.change { state in
            // What print writes: one whole line, nothing pending.
            let utf8 = text.utf8
            if utf8.last == 0x0A, state.partial[stream]?.isEmpty ?? true,
                utf8.count <= LiveProtocol.maxLineBytes, utf8.firstIndex(of: 0x0A) == utf8.index(before: utf8.endIndex)
            {
                state.appendLine(String(decoding: utf8.dropLast(), as: UTF8.self), stream: stream, time: now)
                return
            }
            var pending = state.partial[stream, default: ""]
            pending += text
            var lines: [Substring] = pending.split(separator: "\n", omittingEmptySubsequences: false)
            let rest = lines.removeLast()
            for line in lines {
                state.append(LiveEvent(kind: .output, time: now, stream: stream, text: LiveEvent.capped(String(line))))
            }
            if rest.utf8.count > LiveProtocol.maxLineBytes {
                state.append(LiveEvent(kind: .output, time: now, stream: stream, text: LiveEvent.capped(String(rest))))
                state.partial[stream] = ""
            } else {
                state.partial[stream] = String(rest)
            }
        }
    }

    /// A line the host logs itself.
    public func log(_ line: String) {
        queue.change { $0.append(LiveEvent(kind: .log, text: LiveEvent.capped(line))) }
    }

    /// A line about a test run the program made (`flowpkg test --live`).
    public func test(_ line: String) {
        queue.change { state in
            state.flushPartials()
            state.append(LiveEvent(kind: .test, text: LiveEvent.capped(line)))
        }
    }

    /// An error, with its traceback in `message`.
    public func error(_ message: String, phase: LiveEvent.Phase) {
        queue.change { state in
            state.flushPartials()
            state.append(LiveEvent(kind: .error, text: LiveEvent.capped(message), phase: phase))
        }
    }

    /// Modules and resources loaded again after a change, and how long it took.
    public func reloaded(modules: [String], resources: [String], milliseconds: Double) {
        queue.change { state in
            state.flushPartials()
            state.append(
                LiveEvent(kind: .reload, modules: modules, resources: resources, milliseconds: milliseconds))
        }
    }

    /// The program is ending its session: the last event it sends.
    public func ended() {
        queue.change { state in
            state.flushPartials()
            state.append(LiveEvent(kind: .ended))
        }
    }

    /// Reports every load `loader` makes from now on (size and SHA-256 are computed on the
    /// sending thread, not the program's).
    public func observe(_ loader: Loader) {
        loader.observeLoads(withBytes: { [self] item, bytes in
            let now = Date().timeIntervalSince1970
            queue.change { $0.appendLoad(PendingLoad(item: item, bytes: bytes, time: now)) }
        })
    }

    /// Events dropped so far because the queue was full.
    public var dropped: Int { queue.change { $0.dropped } }

    /// Waits until everything queued so far has been sent, or `timeout` passes; partial lines
    /// are sent as they are. Returns whether everything was sent.
    @discardableResult
    public func flush(timeout: TimeInterval) -> Bool {
        let target = queue.change { state -> Int in
            state.flushPartials()
            return state.queuedTotal
        }
        return queue.wait(deadline: Date(timeIntervalSinceNow: timeout)) {
            $0.sentTotal >= target || $0.stopped || $0.unreachable
        } && queue.change { $0.sentTotal >= target }
    }

    /// Stops the sending thread; what is still queued is not sent.
    public func stop() {
        queue.change { $0.stopped = true }
    }

    // MARK: Sending

    /// The least time between two reports' starts. A line printed after a quiet spell goes at
    /// once; a program printing fast has its lines gathered for this long, so it pays for one
    /// POST per few milliseconds rather than one per line.
    static let reportInterval: TimeInterval = 0.005

    private func sendLoop() {
        var lastRefusal: String?
        var lastStart = Date.distantPast
        while true {
            let notBefore = lastStart.addingTimeInterval(Self.reportInterval)
            guard let batch = queue.takeBatch(maxEvents: LiveProtocol.maxReportEvents / 2, notBefore: notBefore)
            else { return }
            lastStart = Date()
            let events = batch.events.map(\.event)
            let report = LiveReport(program: program, dropped: batch.dropped, events: events)
            let outcome = poster.send(report)
            if case .refused(let status, let message) = outcome {
                // Sending it again would be refused again: say so once, and go on.
                let refusal = "\(status) \(message)"
                if lastRefusal != refusal {
                    log("warning: the live source refused this program's report (\(refusal))")
                    lastRefusal = refusal
                }
            }
            if outcome != .unreachable {
                queue.change {
                    $0.sentTotal += batch.count
                    $0.unreachable = false
                }
                continue
            }
            // Not sent: keep it at the front (the queue's bound still holds) and try again.
            queue.change {
                $0.putBack(batch.events)
                $0.unreachable = true
            }
            _ = queue.wait(deadline: Date(timeIntervalSinceNow: retryInterval)) { $0.stopped }
        }
    }
}
