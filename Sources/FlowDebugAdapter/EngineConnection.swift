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
    private let socket: PlainSocket
    private let state = Locked((nextSeq: 1, waiting: [Int: @Sendable (DebugReply) -> Void](), closed: false))
    private let encoder = JSONEncoder()

    init(socket: PlainSocket) {
        self.socket = socket
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

    /// Takes the program's connection on `listener`, checking its first line is `token`;
    /// nil when none came in `timeout` seconds (or with another token).
    static func accept(on listener: PlainSocket, token: String, timeout: TimeInterval) -> EngineConnection? {
        let deadline = Date() + timeout
        while Date() < deadline {
            guard PlainSocket.readable([listener], within: deadline.timeIntervalSinceNow)[0],
                let (socket, _) = try? listener.accept()
            else { continue }
            var line: [UInt8] = []
            while !line.contains(UInt8(ascii: "\n")), line.count < 256,
                let bytes = try? socket.receive(max: 1, before: deadline)
            {
                line += bytes
            }
            if String(decoding: line, as: UTF8.self) == token + "\n" { return EngineConnection(socket: socket) }
        }
        return nil
    }

    /// Reads messages on a thread of its own: replies to their waiters, the rest to
    /// `onMessage`; `onClose` once the program has gone (every waiter gets a failure first).
    func start(onMessage: @escaping @Sendable (DebugMessage) -> Void, onClose: @escaping @Sendable () -> Void) {
        let socket = self.socket
        DetachedThread.start(name: "flowpkg.dap.engine") { [self] in
            let decoder = JSONDecoder()
            var buffer: [UInt8] = []
            while let bytes = try? socket.receive(max: 64 * 1024) {
                buffer += bytes
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = Data(buffer[..<newline])
                    buffer.removeSubrange(...newline)
                    guard let message = try? decoder.decode(DebugMessage.self, from: line) else { continue }
                    if case .reply(let seq, let reply) = message {
                        let waiter = state.withLock { $0.waiting.removeValue(forKey: seq) }
                        waiter?(reply)
                    } else {
                        onMessage(message)
                    }
                }
            }
            let waiters = state.withLock { state in
                state.closed = true
                defer { state.waiting = [:] }
                return Array(state.waiting.values)
            }
            for waiter in waiters { waiter(.failure("the program has exited")) }
            onClose()
        }
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
        state.withLock { _ in _ = try? socket.send(Array(data) + [UInt8(ascii: "\n")]) }
    }

    func close() {
        socket.shutDown()
    }
}
