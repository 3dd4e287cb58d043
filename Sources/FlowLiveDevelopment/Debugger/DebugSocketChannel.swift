import FlowHTTP
import FlowLiveProtocol
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where the engine's messages go: a socket back to `flowpkg dap`, or the live channel.
package protocol DebugTransport: AnyObject, Sendable {
    func send(_ message: DebugMessage)
}

/// The private channel of a program `flowpkg dap` launched: a loopback connection to the
/// address in `FLOWPKG_DEBUG_CHANNEL`, opened with the token in `FLOWPKG_DEBUG_TOKEN`, then
/// one JSON value a line each way.
package final class DebugSocketChannel: DebugTransport, @unchecked Sendable {
    private let socket: PlainSocket
    private let sending = Locked(())
    private let encoder = JSONEncoder()

    private init(socket: PlainSocket) {
        self.socket = socket
    }

    /// Connects to `address` (`127.0.0.1:PORT`) and sends `token`; nil when nothing answers.
    package static func connect(to address: String, token: String) -> DebugSocketChannel? {
        guard let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...]),
            let socket = try? PlainSocket.connect(host: String(address[..<colon]), port: port, timeout: 5)
        else { return nil }
        let channel = DebugSocketChannel(socket: socket)
        do { try socket.send(Array((token + "\n").utf8)) } catch { return nil }
        return channel
    }

    package func send(_ message: DebugMessage) {
        guard let data = try? encoder.encode(message) else { return }
        sending.withLock { _ in try? socket.send(Array(data) + [UInt8(ascii: "\n")]) }
    }

    /// Reads requests on a thread of its own and hands each to `engine`; tells it, then
    /// `closed`, when the other side has gone.
    package func start(_ engine: DebugEngine, closed: @escaping @Sendable () -> Void = {}) {
        let socket = self.socket
        DetachedThread.start(name: "flowpkg.debug") {
            let decoder = JSONDecoder()
            var buffer: [UInt8] = []
            while let bytes = try? socket.receive(max: 64 * 1024) {
                buffer += bytes
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = Data(buffer[..<newline])
                    buffer.removeSubrange(...newline)
                    if let request = try? decoder.decode(DebugRequest.self, from: line) { engine.receive(request) }
                }
            }
            engine.transportClosed()
            closed()
        }
    }

    /// Closes the connection.
    package func close() {
        socket.shutDown()
    }
}
