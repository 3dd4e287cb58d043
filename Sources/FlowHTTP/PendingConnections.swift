#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The connections still sending their request head, all read by the listener's one accepting
/// thread over non-blocking sockets: an idle or trickling client costs a descriptor and a
/// buffer, never a thread, and never a place that a token holder's request needs.
///
/// Each has `headerTimeout` from its arrival to send its whole head, however slowly the bytes
/// come. When `capacity` are waiting, a new arrival closes the oldest: it has had the longest
/// to send its head, and a client that sends its head at once (as every real one does) is
/// read long before `capacity` newer connections can push it out.
package struct PendingConnections {
    struct Connection {
        let socket: PlainSocket
        let peer: String
        let deadline: Date
        var bytes: [UInt8] = []
    }

    /// How a connection left the waiting list with something to answer.
    enum Outcome {
        /// The head, and the bytes that came after it (the start of a body).
        case head(SocketReader.Head, rest: [UInt8])
        /// Not an HTTP head within the limits, in words for a 400.
        case malformed(String)
    }

    let capacity: Int
    let headerTimeout: TimeInterval
    /// Oldest first.
    private(set) var waiting: [Connection] = []

    init(capacity: Int, headerTimeout: TimeInterval) {
        self.capacity = max(1, capacity)
        self.headerTimeout = headerTimeout
    }

    var sockets: [PlainSocket] { waiting.map(\.socket) }

    /// The earliest deadline of those waiting.
    var nextDeadline: Date? { waiting.first?.deadline }

    /// Takes a new connection, closing the oldest waiting one if there is no room.
    mutating func admit(_ socket: PlainSocket, peer: String, now: Date) {
        socket.setNonBlocking(true)
        if waiting.count >= capacity { _ = closeOldest() }
        waiting.append(Connection(socket: socket, peer: peer, deadline: now.addingTimeInterval(headerTimeout)))
    }

    /// Closes the oldest waiting connection (to free its descriptor); false when none waits.
    mutating func closeOldest() -> Bool {
        guard !waiting.isEmpty else { return false }
        waiting.removeFirst().socket.shutDown()
        return true
    }

    /// Reads what arrived on the connections `ready` marks (in `sockets`' order), closes those
    /// whose client left or whose deadline has passed, and hands back those whose head is
    /// complete or malformed, no longer waiting.
    mutating func read(ready: [Bool], now: Date) -> [(Connection, Outcome)] {
        var done: [(Connection, Outcome)] = []
        var kept: [Connection] = []
        kept.reserveCapacity(waiting.count)
        for (index, var connection) in waiting.enumerated() {
            if index < ready.count, ready[index] {
                switch Self.take(&connection) {
                case .waiting: break
                case .gone:
                    connection.socket.shutDown()
                    continue
                case .finished(let outcome):
                    done.append((connection, outcome))
                    continue
                }
            }
            if connection.deadline <= now {
                connection.socket.shutDown()
                continue
            }
            kept.append(connection)
        }
        waiting = kept
        return done
    }

    private enum Progress {
        case waiting
        case gone
        case finished(Outcome)
    }

    private static func take(_ connection: inout Connection) -> Progress {
        let available: PlainSocket.Available
        do { available = try connection.socket.receiveNow(max: 16 * 1024) } catch { return .gone }
        let bytes: [UInt8]
        switch available {
        case .bytes(let arrived): bytes = arrived
        case .nothingYet: return .waiting
        case .closed: return .gone
        }
        let searchFrom = max(connection.bytes.count - 2, 0)
        connection.bytes += bytes
        // Only a blank line ends a head: look for one in what just came, so a client sending
        // a byte at a time costs a scan of its new bytes, not of all it sent.
        if let end = endOfHead(in: connection.bytes, from: searchFrom) {
            do {
                guard let head = try SocketReader.head(in: connection.bytes[...end]) else {
                    return .finished(.malformed("the head does not parse"))
                }
                return .finished(.head(head, rest: Array(connection.bytes[(end + 1)...])))
            } catch {
                guard case .malformed(let reason) = error else { return .gone }
                return .finished(.malformed(reason))
            }
        }
        if connection.bytes.count > SocketReader.maxHead {
            return .finished(.malformed("the head is larger than \(SocketReader.maxHead) bytes"))
        }
        return .waiting
    }

    /// The index of the LF that ends the first blank line at or after `from`, if any.
    static func endOfHead(in bytes: [UInt8], from: Int) -> Int? {
        var index = from
        while index < bytes.count {
            if bytes[index] == 0x0A, index > 0 {
                if bytes[index - 1] == 0x0A { return index }
                if bytes[index - 1] == 0x0D, index > 1, bytes[index - 2] == 0x0A { return index }
            }
            index += 1
        }
        return nil
    }
}
