import FlowHTTP
import FlowLiveProtocol
import FlowRuntime
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
    /// Where the relay's requests are read (naming this program) and where messages go.
    private let streamURL: URL
    private let postURL: URL
    private let token: String
    private let program: LiveProgram
    /// `open`: the relay answered the stream's GET, so it knows this program and takes its
    /// messages.
    private let state = Locked((source: EventSource?.none, stopped: false, engine: DebugEngine?.none, open: false))

    /// Why a program cannot take a debugger through its live source.
    package struct Unavailable: Error, CustomStringConvertible {
        package var description: String
    }

    /// A channel to the relay of the live source at `url`; fails when `url` cannot take the
    /// relay's path (not a URL with a host, as `http://127.0.0.1:7315`).
    package init(url: URL, token: String, program: LiveProgram) throws(Unavailable) {
        let stream = Self.relayURL(
            url, path: LiveProtocol.debugProgramPath,
            [("id", program.id), ("identifier", program.identifier), ("pid", String(program.processID))])
        guard let stream, let post = Self.relayURL(url, path: LiveProtocol.debugProgramPath, [("id", program.id)]),
            url.host != nil
        else {
            throw Unavailable(description: "the live source \(url.absoluteString) is not a URL the debug relay is at")
        }
        self.streamURL = stream
        self.postURL = post
        self.token = token
        self.program = program
    }

    /// The debug channel of `context`, following the live source `configuration` names, as
    /// `program`: the engine attached (hooks off until a breakpoint is set), its requests read
    /// from the source's relay; with `waitForDebugger`, returns once a debugger has finished
    /// its configuration or the wait is over. Throws when the engine cannot attach.
    static func start(
        context: LuaContext, configuration: DevelopmentMonitor.Configuration, program: LiveProgram
    ) throws(Unavailable) -> DebugLiveChannel {
        let channel = try DebugLiveChannel(url: configuration.url, token: configuration.token, program: program)
        let engine = DebugEngine(context: context, transport: channel)
        engine.vanishedTimeout = configuration.debuggerSilenceTimeout
        do {
            // Waiting for a debugger: `coroutine` and `pcall` are wrapped before any code runs;
            // otherwise at the first request (a program no debugger comes to runs untouched).
            try engine.attach(wrappingNow: configuration.waitForDebugger != nil)
        } catch {
            throw Unavailable(description: "the debugger's engine cannot attach: \(error)")
        }
        channel.start(engine)
        if let seconds = configuration.waitForDebugger { engine.waitForConfiguration(timeout: seconds) }
        return channel
    }

    /// A relay's program `path` at `base` (the debug relay's, the test relay's), with `query`;
    /// nil when `base` cannot take it.
    static func relayURL(_ base: URL, path: String, _ query: [(String, String)]) -> URL? {
        var components = URLComponents(url: base, resolvingAgainstBaseURL: false)
        components?.path = path
        components?.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) }
        return components?.url
    }

    /// Opens the stream and hands each request to `engine`, reconnecting while the live source
    /// restarts; a stream that ends tells the engine its debugger is gone.
    package func start(_ engine: DebugEngine) {
        let source = EventSource(url: streamURL, token: token)
        let proceed = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.source = source
            state.engine = engine
            return true
        }
        guard proceed else { return }
        source.start(
            onOpen: { [weak self] in self?.state.withLock { $0.open = true } },
            onEvent: { name, data in
                guard name == LiveProtocol.debugEvent,
                    let request = try? JSONDecoder().decode(DebugRequest.self, from: Data(data.utf8))
                else { return }
                engine.receive(request)
            },
            onEnd: { [weak self] end in
                self?.state.withLock { $0.open = false }
                engine.transportClosed()
                guard let self, !self.state.withLock({ $0.stopped }) else { return }
                if case .refused(let status, _) = end, status == 401 { return }
                DetachedThread.sleep(seconds: 1)
                self.start(engine)
            })
    }

    /// POSTs `message` to the relay. A message the relay does not take (it restarted and
    /// forgot this program, or cannot be reached) ends the stream, which tells the engine its
    /// debugger is gone and connects again, as when the live source restarts.
    ///
    /// Before the stream is open (a module loads while the stream's GET is on its way), the
    /// message is dropped: the relay does not know this program yet, so no debugger is
    /// attached to take it, and its 404 would end the stream just opening, leaving the
    /// program unattachable for a second.
    package func send(_ message: DebugMessage) {
        guard state.withLock({ $0.open }) else { return }
        guard let body = try? JSONEncoder().encode(message) else { return }
        let taken: Bool
        do {
            let answer = try HTTPConnection.exchange(
                "POST", postURL, headers: [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")],
                body: [UInt8](body), timeout: 5)
            taken = (200..<300).contains(answer.status)
        } catch {
            taken = false
        }
        if !taken { state.withLock { $0.source }?.cancel() }
    }

    /// Closes the stream for good and takes the engine's hooks out of the program.
    package func stop() {
        let (source, engine) = state.withLock { state in
            state.stopped = true
            return (state.source, state.engine)
        }
        source?.cancel()
        engine?.detach()
    }
}
