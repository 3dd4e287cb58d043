import FlowHTTP
import FlowLiveProtocol
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The debug channel of a program following a live source: requests come on an event stream
/// from `flowpkg serve`'s relay, messages go back as POSTs, with the live token. A debugger
/// attaches through `flowpkg serve`; the program opens no port of its own.
package final class DebugLiveChannel: DebugTransport, @unchecked Sendable {
    private let baseURL: URL
    private let token: String
    private let program: LiveProgram
    private let state = Locked((source: EventSource?.none, stopped: false))

    package init(url: URL, token: String, program: LiveProgram) {
        self.baseURL = url
        self.token = token
        self.program = program
    }

    private func url(_ query: [(String, String)]) -> URL {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        components.path = LiveProtocol.debugProgramPath
        components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) }
        return components.url!
    }

    /// Opens the stream and hands each request to `engine`, reconnecting while the live source
    /// restarts; a stream that ends tells the engine its debugger is gone.
    package func start(_ engine: DebugEngine) {
        let source = EventSource(
            url: url([("id", program.id), ("identifier", program.identifier), ("pid", String(program.processID))]),
            token: token)
        let proceed = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.source = source
            return true
        }
        guard proceed else { return }
        source.start(
            onEvent: { name, data in
                guard name == LiveProtocol.debugEvent,
                    let request = try? JSONDecoder().decode(DebugRequest.self, from: Data(data.utf8))
                else { return }
                engine.receive(request)
            },
            onEnd: { [weak self] end in
                engine.transportClosed()
                guard let self, !self.state.withLock({ $0.stopped }) else { return }
                if case .refused(let status, _) = end, status == 401 { return }
                DetachedThread.sleep(seconds: 1)
                self.start(engine)
            })
    }

    package func send(_ message: DebugMessage) {
        guard let body = try? JSONEncoder().encode(message) else { return }
        _ = HTTPPost.send(url([("id", program.id)]), token: token, body: [UInt8](body))
    }

    /// Closes the stream for good.
    package func stop() {
        state.withLock { state in
            state.stopped = true
            return state.source
        }?.cancel()
    }
}
