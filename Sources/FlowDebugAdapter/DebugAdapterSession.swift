import FlowLiveProtocol
import FlowSupport
import ContentLengthFraming
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
        /// The error each thread stopped on, while stopped on one (what `exceptionInfo` says).
        var exceptions: [Int: String] = [:]
        /// Whether the `raised` filter is on: every error stops, caught or not.
        var stopsOnRaised = false
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

    /// Binds `Request`'s command to `handler`, which gets the request's arguments decoded and
    /// the reply that answers it.
    func on<Request: DAPRequest>(_ type: Request.Type, _ handler: @escaping (Request, Reply<Request>) -> Void) {
        routes[Request.command] = { [unowned self] envelope, body in
            let reply = Reply<Request>(seq: envelope.seq, session: self)
            do {
                let wrapped = try JSONDecoder().decode(DAPArguments<Request>.self, from: body)
                let arguments = try wrapped.arguments ?? JSONDecoder().decode(Request.self, from: Data("{}".utf8))
                handler(arguments, reply)
            } catch {
                reply.fail("invalid arguments for '\(Request.command)': \(Self.describe(error))")
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

    func respondError(requestSeq: Int, command: String, message: String) {
        write(
            DAPResponse<Empty>(
                seq: 0, requestSeq: requestSeq, success: false, command: command, message: message, body: nil))
    }

    /// Writes one response, whichever request it answers (`Reply` makes them).
    func write<Body: Encodable>(_ response: DAPResponse<Body>) {
        var response = response
        response.seq = nextSeq()
        writer.send(response)
    }

    func send<Event: DAPEventBody>(_ event: Event) {
        writer.send(DAPEvent(seq: nextSeq(), body: event))
    }

    /// Sends `command` to the engine and answers with what `answer` makes of the reply (nil:
    /// the reply was not the kind expected).
    func forward<Request: DAPRequest>(
        _ command: DebugCommand, _ reply: Reply<Request>,
        answer: @escaping @Sendable (DebugReply) -> Request.Response?
    ) {
        guard let connection = state.withLock({ $0.connection }) else {
            return reply.fail("no program is being debugged")
        }
        connection.send(command) { engineReply in
            if case .failure(let message) = engineReply { return reply.fail(message) }
            guard let body = answer(engineReply) else { return reply.fail("unexpected reply") }
            reply.succeed(body)
        }
    }

    /// `forward` for a request whose answer has no body.
    func forward<Request: DAPRequest>(_ command: DebugCommand, _ reply: Reply<Request>)
    where Request.Response == Empty {
        forward(command, reply) { _ in Empty() }
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
}
