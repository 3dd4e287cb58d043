import FlowLiveProtocol
import FlowSupport
import LanguageServerProtocol
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `flowpkg dap`'s session with one editor: DAP requests in on a descriptor, responses and
/// events out on another; the program it launched (or attached to) at the other end of the
/// debug channel.
///
/// Requests are routed by the type bound to their command (`DAPRequest.command`), each decoded
/// once into that type. Whatever the program must answer goes to its engine and is answered
/// when the engine replies, so a slow answer (an evaluation waiting for a safe point) never
/// holds up the next request.
public final class DebugAdapterSession: @unchecked Sendable {
    struct State {
        var connection: EngineConnection?
        var process: ChildProcess?
        var sourceMap: SourceMap
        var projectRoot: String?
        var stopOnEntry = false
        var nextBreakpointID = 1
        var breakpointSources: [Int: DAPSource] = [:]
        var ended = false
    }

    private let reader: MessageReader
    private let writer: MessageWriter
    let executable: String
    private let seq = Locked(0)
    let state: Locked<State>
    /// Whether `end` has begun, and whether it has finished (the launched program gone).
    private let ending = Awaited((begun: false, finished: false))
    private var routes: [String: (DAPEnvelope, Data) -> Void] = [:]
    /// How long a launched program may take to connect back.
    public var connectionTimeout: TimeInterval = 30

    /// A session reading `input` and writing `output`; `flowpkgExecutable` is what launches
    /// programs (`flowpkg run`).
    public init(input: Int32, output: Int32, flowpkgExecutable: String, workingDirectory: String) {
        reader = MessageReader(descriptor: input)
        writer = MessageWriter(descriptor: output)
        executable = flowpkgExecutable
        state = Locked(State(sourceMap: SourceMap(workingDirectory: workingDirectory)))
        registerRoutes()
    }

    /// Serves requests until the editor disconnects or closes the stream; returns once the
    /// session has ended (a launched program with it), so the adapter never exits before it.
    public func run() {
        while !state.withLock({ $0.ended }) {
            switch reader.next() {
            case .endOfInput:
                end(terminating: true)
                return
            case .badFrame(let problem):
                respondError(requestSeq: 0, command: "", message: "malformed message: \(problem)")
            case .tooLarge(let length, _):
                respondError(requestSeq: 0, command: "", message: "a message of \(length) bytes is too large")
            case .message(let body):
                route(Data(body))
            }
        }
        // A disconnect's `end` may still be ending the program, on the engine's thread.
        _ = ending.wait(until: { $0.finished ? true : nil })
    }

    private func route(_ body: Data) {
        guard let envelope = try? JSONDecoder().decode(DAPEnvelope.self, from: body) else {
            let text = String(decoding: body.prefix(80), as: UTF8.self)
            return respondError(requestSeq: 0, command: "", message: "malformed message: not a DAP message: \(text)")
        }
        guard envelope.type == "request", let command = envelope.command else { return }
        guard let handler = routes[command] else {
            return respondError(requestSeq: envelope.seq, command: command, message: "unsupported request '\(command)'")
        }
        handler(envelope, body)
    }

    /// Binds `Request`'s command to `handler`, which gets the request's arguments decoded.
    func on<Request: DAPRequest>(_ type: Request.Type, _ handler: @escaping (Int, Request) -> Void) {
        routes[Request.command] = { [unowned self] envelope, body in
            do {
                let wrapped = try JSONDecoder().decode(DAPArguments<Request>.self, from: body)
                let arguments = try wrapped.arguments ?? JSONDecoder().decode(Request.self, from: Data("{}".utf8))
                handler(envelope.seq, arguments)
            } catch {
                self.respondError(
                    requestSeq: envelope.seq, command: Request.command,
                    message: "invalid arguments for '\(Request.command)': \(Self.describe(error))")
            }
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? DecodingError {
            switch error {
            case .keyNotFound(let key, _): return "'\(key.stringValue)' is missing"
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                let path = context.codingPath.map(\.stringValue).joined(separator: ".")
                return path.isEmpty ? context.debugDescription : "'\(path)': \(context.debugDescription)"
            @unknown default: return "\(error)"
            }
        }
        return "\(error)"
    }

    // MARK: Sending

    private func nextSeq() -> Int {
        seq.withLock {
            $0 += 1
            return $0
        }
    }

    func respond<Body: Encodable>(_ requestSeq: Int, _ command: String, _ body: Body) {
        writer.send(DAPResponse(seq: nextSeq(), requestSeq: requestSeq, success: true, command: command, body: body))
    }

    func respondError(requestSeq: Int, command: String, message: String) {
        writer.send(
            DAPResponse<Empty>(
                seq: nextSeq(), requestSeq: requestSeq, success: false, command: command, message: message, body: nil))
    }

    func send<Body: Encodable>(event: String, _ body: Body) {
        writer.send(DAPEvent(seq: nextSeq(), event: event, body: body))
    }

    /// Sends `command` to the engine and answers request `requestSeq` with what `answer`
    /// makes of the reply (nil: the reply was not the kind expected).
    func forward<Body: Encodable>(
        _ command: DebugCommand, requestSeq: Int, name: String, answer: @escaping @Sendable (DebugReply) -> Body?
    ) {
        guard let connection = state.withLock({ $0.connection }) else {
            return respondError(requestSeq: requestSeq, command: name, message: "no program is being debugged")
        }
        connection.send(command) { [weak self] reply in
            guard let self else { return }
            if case .failure(let message) = reply {
                return self.respondError(requestSeq: requestSeq, command: name, message: message)
            }
            guard let body = answer(reply) else {
                return self.respondError(requestSeq: requestSeq, command: name, message: "unexpected reply")
            }
            self.respond(requestSeq, name, body)
        }
    }

    /// Ends the session: the launched program too, when `terminating`; returns once it has
    /// gone. A second call (the editor's input closing during a disconnect) waits for the first.
    /// `answer` (a disconnect's response) is written before the session counts as finished:
    /// `run()` returns, and the adapter exits, only once it has been written.
    func end(terminating: Bool, then answer: (() -> Void)? = nil) {
        let first = ending.withLock { ending -> Bool in
            defer { ending.begun = true }
            return !ending.begun
        }
        guard first else {
            _ = ending.wait(until: { $0.finished ? true : nil })
            answer?()
            return
        }
        let (connection, process) = state.withLock { state in
            state.ended = true
            return (state.connection, state.process)
        }
        if terminating { process?.terminate() }
        connection?.close()
        answer?()
        ending.withLock { $0.finished = true }
    }

    // MARK: From the engine

    func engineSent(_ message: DebugMessage) {
        switch message {
        case .reply, .ready:
            break
        case .stopped(let reason, let thread, let text, let breakpoints):
            send(
                event: "stopped",
                StoppedEventBody(
                    reason: reason, threadId: thread, description: text.map { "Error: " + $0 } ?? reason, text: text,
                    hitBreakpointIds: breakpoints.isEmpty ? nil : breakpoints))
        case .output(let text, let category):
            send(event: "output", OutputEventBody(category: category, output: text))
        case .loadedSource(let key):
            let source = state.withLock { $0.sourceMap.source(for: key) }
            send(event: "loadedSource", LoadedSourceEventBody(source: source))
        case .breakpointChanged(let breakpoint):
            let source = state.withLock { $0.breakpointSources[breakpoint.id] }
            send(event: "breakpoint", BreakpointEventBody(breakpoint: Self.dap(breakpoint, source: source)))
        }
    }

    static func dap(_ state: DebugBreakpointState, source: DAPSource?) -> DAPBreakpoint {
        DAPBreakpoint(id: state.id, verified: state.verified, line: state.line, message: state.message, source: source)
    }
}
