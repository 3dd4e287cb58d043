import FlowHTTP
import FlowLiveProtocol
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The adapter's end of the debug channel to the engine in a program: requests out, each
/// reply handed to the closure waiting for it, events to `onMessage`.
final class EngineConnection: @unchecked Sendable {
    private let socket: PlainSocket?
    /// How a request's JSON goes out: a line on the socket, or a POST to the relay; nil when
    /// it went, else why not.
    private let write: @Sendable ([UInt8]) -> String?
    private let shutDown: @Sendable () -> Void
    private let state = Locked((nextSeq: 1, waiting: [Int: @Sendable (DebugReply) -> Void](), closed: false))
    private let encoder = JSONEncoder()
    private let sending = Locked(())

    init(socket: PlainSocket) {
        self.socket = socket
        write = { bytes in
            do {
                try socket.send(bytes + [UInt8(ascii: "\n")])
                return nil
            } catch {
                return "the program's debug channel is closed: \(failureReason(error))"
            }
        }
        shutDown = { socket.shutDown() }
    }

    private init(write: @escaping @Sendable ([UInt8]) -> String?, shutDown: @escaping @Sendable () -> Void) {
        socket = nil
        self.write = write
        self.shutDown = shutDown
    }

    /// Listens on loopback for the program's connection: the socket and its `HOST:PORT`.
    static func listen() throws -> (PlainSocket, String) {
        let listener = try PlainSocket.listen(host: "127.0.0.1", port: 0)
        guard let port = listener.localPort else { throw NoPort() }
        return (listener, "127.0.0.1:\(port)")
    }

    struct NoPort: Error, CustomStringConvertible {
        var description: String { "the loopback listener has no port" }
    }

    /// Takes the program's connection on `listener` if one comes within `wait` seconds,
    /// checking its first line is `token` (read within 5 seconds); nil otherwise.
    static func accept(on listener: PlainSocket, token: String, wait: TimeInterval) -> EngineConnection? {
        guard PlainSocket.readable([listener], within: wait)[0], let (socket, _) = try? listener.accept() else {
            return nil
        }
        let deadline = Date() + 5
        var line: [UInt8] = []
        while !line.contains(UInt8(ascii: "\n")), line.count < 256,
            let bytes = try? socket.receive(max: 1, before: deadline)
        {
            line += bytes
        }
        // The token's deadline must not outlive it: later reads wait as long as it takes.
        socket.setTimeouts(send: nil, receive: nil)
        guard String(decoding: line, as: UTF8.self) == token + "\n" else { return nil }
        return EngineConnection(socket: socket)
    }

    /// Reads messages on a thread of its own: replies to their waiters, the rest to
    /// `onMessage`; `onClose` once the program has gone (every waiter gets a failure first).
    func start(onMessage: @escaping @Sendable (DebugMessage) -> Void, onClose: @escaping @Sendable () -> Void) {
        guard let socket else { return }
        DetachedThread.start(name: "flowpkg.dap.engine") { [self] in
            let decoder = JSONDecoder()
            var buffer: [UInt8] = []
            while let bytes = try? socket.receive(max: 64 * 1024) {
                buffer += bytes
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = Data(buffer[..<newline])
                    buffer.removeSubrange(...newline)
                    if let message = try? decoder.decode(DebugMessage.self, from: line) { deliver(message, onMessage) }
                }
            }
            ended()
            onClose()
        }
    }

    private func deliver(_ message: DebugMessage, _ onMessage: @Sendable (DebugMessage) -> Void) {
        if case .reply(let seq, let reply) = message {
            let waiter = state.withLock { $0.waiting.removeValue(forKey: seq) }
            waiter?(reply)
        } else {
            onMessage(message)
        }
    }

    private func ended() {
        let waiters = state.withLock { state in
            state.closed = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for waiter in waiters { waiter(.failure("the program has exited")) }
    }

    /// Attaches through `flowpkg serve` at `serve` with `token` to `program` (an identifier or
    /// a process id; nil when one program is connected): the program's messages come on the
    /// relay's event stream, requests go as POSTs. The attachment, or why not.
    static func attach(
        serve: URL, token: String, program: String?, onMessage: @escaping @Sendable (DebugMessage) -> Void,
        onClose: @escaping @Sendable () -> Void
    ) -> Result<(EngineConnection, DebugAttachment), AttachFailure> {
        guard let url = clientURL(serve, program: program), serve.scheme == "http", serve.host != nil else {
            return .failure(AttachFailure(description: "'serve' must be flowpkg serve's http:// URL, not '\(serve)'"))
        }
        let source = EventSource(url: url, token: token)
        let outcome = Awaited(Result<(EngineConnection, DebugAttachment), AttachFailure>?.none)
        let connection = Locked(EngineConnection?.none)
        source.start(
            onEvent: { name, data in
                if name == LiveProtocol.debugAttachedEvent {
                    guard let attachment = try? JSONDecoder().decode(DebugAttachment.self, from: Data(data.utf8)) else {
                        return
                    }
                    // The relay's URL already formed with another program; the id it gave
                    // is only a query value, percent-encoded, so this one forms too.
                    guard let target = clientURL(serve, program: attachment.id) else {
                        outcome.withLock { outcome in
                            if outcome == nil {
                                outcome = .failure(
                                    AttachFailure(
                                        description: "flowpkg serve at \(serve) named the program '\(attachment.id)', "
                                            + "which no URL can address"))
                            }
                        }
                        source.cancel()
                        return
                    }
                    let made = EngineConnection(
                        write: { bytes in post(bytes, to: target, token: token) },
                        shutDown: { source.cancel() })
                    connection.withLock { $0 = made }
                    outcome.withLock { $0 = .success((made, attachment)) }
                } else if name == LiveProtocol.debugEvent,
                    let message = try? JSONDecoder().decode(DebugMessage.self, from: Data(data.utf8)),
                    let made = connection.withLock({ $0 })
                {
                    made.deliver(message, onMessage)
                }
            },
            onEnd: { end in
                let made = connection.withLock { $0 }
                outcome.withLock { outcome in
                    guard outcome == nil else { return }
                    switch end {
                    case .refused(401, _):
                        outcome = .failure(AttachFailure(description: "flowpkg serve refused the token"))
                    case .refused(_, let message): outcome = .failure(AttachFailure(description: message))
                    case .closed(let reason):
                        outcome = .failure(
                            AttachFailure(description: "cannot reach flowpkg serve at \(serve): \(reason)"))
                    }
                }
                made?.ended()
                if made != nil { onClose() }
            })
        return outcome.wait(until: { $0 })
    }

    /// The relay's client path at `serve`, for `program` (an id or identifier) or the one
    /// connected; nil when `serve` is no URL to build on.
    private static func clientURL(_ serve: URL, program: String?) -> URL? {
        var components = URLComponents(url: serve, resolvingAgainstBaseURL: false)
        components?.path = LiveProtocol.debugClientPath
        components?.queryItems = program.map { [URLQueryItem(name: "program", value: $0)] }
        return components?.url
    }

    /// POSTs a request to the relay: nil when it took it, else why not (its own message when it
    /// refused, as "the program is no longer connected").
    private static func post(_ bytes: [UInt8], to target: URL, token: String) -> String? {
        do {
            let answer = try HTTPConnection.exchange(
                "POST", target, headers: [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")],
                body: bytes, timeout: 5)
            guard (200..<300).contains(answer.status) else {
                return "flowpkg serve refused the request (\(answer.status)): \(answer.message)"
            }
            return nil
        } catch {
            switch error {
            case .unreachable(let reason), .malformed(let reason): return "cannot reach flowpkg serve: \(reason)"
            }
        }
    }

    struct AttachFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Sends `command`; `reply` gets the engine's answer (a failure once the program is gone).
    func send(_ command: DebugCommand, reply: @escaping @Sendable (DebugReply) -> Void) {
        let seq: Int? = state.withLock { state in
            guard !state.closed else { return nil }
            let seq = state.nextSeq
            state.nextSeq += 1
            state.waiting[seq] = reply
            return seq
        }
        guard let seq else { return reply(.failure("the program has exited")) }
        guard let data = try? encoder.encode(DebugRequest(seq: seq, command: command)) else { return }
        // A request that did not go out is answered now, with why: the editor shows it.
        guard let problem = sending.withLock({ _ in write([UInt8](data)) }) else { return }
        let waiter = state.withLock { $0.waiting.removeValue(forKey: seq) }
        waiter?(.failure(problem))
    }

    func close() {
        shutDown()
    }
}
