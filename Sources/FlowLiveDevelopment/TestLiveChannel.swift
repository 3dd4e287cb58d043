import FlowHTTP
import FlowLiveProtocol
import FlowRuntime
import FlowSupport
import FlowTesting
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The test channel of a program following a live source: `flowpkg serve` passes on each run
/// `flowpkg test --live` (or dev's `t` key) asks for, on an event stream; the program runs its
/// spec files, each in a fresh context made as the program's own (with the host's API), and
/// POSTs each file's results back with the live token, a line for the session page as well.
final class TestLiveChannel: Sendable {
    private let streamURL: URL
    private let postURL: URL
    private let token: String
    private let program: LiveProgram
    private let contexts: LaunchContexts
    private let reporter: LiveReporter
    private let state = Locked((source: EventSource?.none, stopped: false))

    /// A channel to the live source at `url`; nil when `url` cannot take the relay's path.
    init?(url: URL, token: String, program: LiveProgram, contexts: LaunchContexts, reporter: LiveReporter) {
        let query = [("id", program.id), ("identifier", program.identifier), ("pid", String(program.processID))]
        guard url.host != nil,
            let stream = DebugLiveChannel.relayURL(url, path: LiveProtocol.testProgramPath, query),
            let post = DebugLiveChannel.relayURL(url, path: LiveProtocol.testProgramPath, [("id", program.id)])
        else { return nil }
        streamURL = stream
        postURL = post
        self.token = token
        self.program = program
        self.contexts = contexts
        self.reporter = reporter
    }

    /// Opens the stream, reconnecting while the live source restarts, until `stop()` or a
    /// refused token.
    func start() {
        let source = EventSource(url: streamURL, token: token)
        let proceed = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.source = source
            return true
        }
        guard proceed else { return }
        source.start(
            onEvent: { [weak self] name, data in
                guard let self, name == LiveProtocol.testEvent,
                    let request = try? JSONDecoder().decode(LiveTestRequest.self, from: Data(data.utf8))
                else { return }
                DetachedThread.start(name: "flowpkg.test") { self.run(request) }
            },
            onEnd: { [weak self] end in
                guard let self, !self.state.withLock({ $0.stopped }) else { return }
                if case .refused(let status, _) = end, status == 401 { return }
                DetachedThread.sleep(seconds: 1)
                self.start()
            })
    }

    /// Closes the stream for good; a run under way ends its files.
    func stop() {
        let source = state.withLock { state in
            state.stopped = true
            return state.source
        }
        source?.cancel()
    }

    /// Runs `request`'s spec files, sending each file's results as it ends.
    private func run(_ request: LiveTestRequest) {
        send(.started(program), run: request.run)
        let count = request.files.count
        reporter.test("running \(count) spec file\(count == 1 ? "" : "s") for flowpkg test")
        let contexts = self.contexts
        let suite = TestSuite.live(request, identifier: contexts.identifier, makeContext: { try contexts.make() })
        let report = TestRunner.run(
            suite, options: request.options,
            fileDone: { [self] result in
                send(.file(result), run: request.run)
                reporter.test(Self.line(result.records, prefix: result.file + ": "))
            })
        send(.finished(seed: report.seed, duration: report.duration), run: request.run)
        reporter.test(Self.line(report.records, prefix: "finished: "))
    }

    /// `spec/a_spec.lua: 3 successes / 1 failure / 0 errors / 0 pending`.
    static func line(_ records: [SpecRecord], prefix: String) -> String {
        func count(_ status: SpecRecord.Status, _ word: String, _ plural: String) -> String {
            let number = records.filter { $0.status == status }.count
            return "\(number) \(number == 1 ? word : plural)"
        }
        return prefix
            + [
                count(.success, "success", "successes"), count(.failure, "failure", "failures"),
                count(.error, "error", "errors"), count(.pending, "pending", "pending"),
            ].joined(separator: " / ")
    }

    private func send(_ message: LiveTestMessage, run: String) {
        guard let body = try? JSONEncoder().encode(message),
            var components = URLComponents(url: postURL, resolvingAgainstBaseURL: false)
        else { return }
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "run", value: run)]
        guard let url = components.url else { return }
        _ = try? HTTPConnection.exchange(
            "POST", url, headers: [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")],
            body: [UInt8](body), timeout: 10)
    }
}
