import Dispatch
import FlowHTTP
import FlowLiveProtocol
import FlowSupport
import FlowTesting
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `flowpkg test --live`'s side of the test channel: it POSTs the request to `flowpkg serve`
/// and reads the run's messages from the answer, as they come, into a `TestReport`.
public enum LiveTestClient {
    /// How a run through the live source ended.
    public enum Outcome: Sendable {
        /// Every file ran in `program`.
        case finished(TestReport, program: LiveProgram?)
        /// The run did not happen or did not end: why, in words for the terminal.
        case failed(String)
    }

    /// Runs `request` in the program `program` names (nil: the one connected) through the live
    /// source at `url`, presenting `token`; `fileDone` sees each file's results as they come.
    public static func run(
        _ request: LiveTestRequest, url: URL, token: String, program: String?,
        fileDone: @escaping @Sendable (SpecFileResult) -> Void = { _ in }
    ) -> Outcome {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.path = LiveProtocol.testRunPath
        if let program { components?.queryItems = [URLQueryItem(name: "program", value: program)] }
        guard let runURL = components?.url, url.host != nil, let body = try? JSONEncoder().encode(request) else {
            return .failed("\(url.absoluteString) is not a URL of flowpkg serve (http://HOST:PORT)")
        }
        struct Collected {
            var program: LiveProgram?
            var files: [SpecFileResult] = []
            var finished: (seed: Int64, duration: Double)?
            var failure: String?
        }
        let collected = Locked(Collected())
        let ended = DispatchSemaphore(value: 0)
        let source = EventSource(url: runURL, token: token, posting: [UInt8](body))
        source.start(
            onEvent: { name, data in
                guard name == LiveProtocol.testEvent,
                    let message = try? JSONDecoder().decode(LiveTestMessage.self, from: Data(data.utf8))
                else { return }
                switch message {
                case .started(let program): collected.withLock { $0.program = program }
                case .file(let result):
                    collected.withLock { $0.files.append(result) }
                    fileDone(result)
                case .finished(let seed, let duration): collected.withLock { $0.finished = (seed, duration) }
                case .refused(let reason): collected.withLock { $0.failure = reason }
                }
            },
            onEnd: { end in
                collected.withLock { collected in
                    guard collected.finished == nil, collected.failure == nil else { return }
                    collected.failure = Self.reason(end, url: url)
                }
                ended.signal()
            })
        ended.wait()
        let result = collected.withLock { $0 }
        if let failure = result.failure { return .failed(failure) }
        guard let finished = result.finished else { return .failed("the run ended without its results") }
        return .finished(
            TestReport(files: result.files, seed: finished.seed, duration: finished.duration), program: result.program)
    }

    private static func reason(_ end: EventSource.End, url: URL) -> String {
        switch end {
        case .refused(401, let message):
            return "flowpkg serve at \(url.absoluteString) refused the token in FLOWPKG_LIVE_TOKEN (\(message)): "
                + "give the token it printed"
        case .refused(let status, let message):
            return "flowpkg serve at \(url.absoluteString) answered \(status): \(message)"
        case .closed(let reason):
            return
                "cannot reach flowpkg serve at \(url.absoluteString), or it stopped before the tests finished: \(reason)"
        }
    }
}
