#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads an HTTP/1.x head, then byte runs, off a socket through one buffer: how both ends of
/// the live channel read (the client its answers, the server its requests).
package final class SocketReader {
    /// Why a head could not be read.
    package enum Problem: Error {
        /// The connection ended first.
        case ended
        /// A receive failed or timed out.
        case failed(PlainSocket.Failure)
        /// The bytes are not an HTTP head within the limits, in words for a message.
        case malformed(String)
    }

    /// The start line (`GET / HTTP/1.1`, `HTTP/1.1 200 OK`) and the headers by lower-cased name.
    package struct Head {
        package var startLine: String
        package var headers: [String: String]
    }

    package static let maxLine = 8 * 1024
    package static let maxHead = 64 * 1024

    private let socket: PlainSocket
    private let deadline: Date?
    private var buffer: [UInt8] = []
    private var start = 0

    /// With a `deadline`, every receive ends by then, however slowly the bytes trickle in;
    /// without one, the socket's own receive timeout applies to each.
    package init(_ socket: PlainSocket, deadline: Date? = nil) {
        self.socket = socket
        self.deadline = deadline
    }

    /// Up to `max` bytes, at least one; nil once the other side has closed.
    package func some(max: Int) throws(PlainSocket.Failure) -> ArraySlice<UInt8>? {
        if start == buffer.count {
            guard let more = try receive() else { return nil }
            buffer = more
            start = 0
        }
        let end = min(buffer.count, start + max)
        defer { start = end }
        return buffer[start..<end]
    }

    /// One line without its CRLF (or bare LF), at most `maxLine` bytes.
    package func line() throws(Problem) -> String {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                var end = newline
                if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                defer { start = newline + 1 }
                return String(decoding: buffer[start..<end], as: UTF8.self)
            }
            if buffer.count - start > Self.maxLine { throw .malformed("a line is longer than \(Self.maxLine) bytes") }
            let more: [UInt8]?
            do { more = try receive() } catch { throw .failed(error) }
            guard let more else { throw .ended }
            buffer.removeFirst(start)
            start = 0
            buffer += more
        }
    }

    /// The start line and the headers, up to the blank line, at most `maxHead` bytes in all.
    package func head() throws(Problem) -> Head {
        var lines: [String] = []
        var total = 0
        while true {
            let line = try line()
            total += line.utf8.count + 2
            if total > Self.maxHead { throw .malformed("the head is larger than \(Self.maxHead) bytes") }
            if line.isEmpty { break }
            lines.append(line)
        }
        return try Self.head(lines: lines)
    }

    /// The head at the start of `bytes` once its blank line has arrived, nil while it has not;
    /// the same limits as `head()`. How the server reads requests that arrive piece by piece
    /// on non-blocking sockets, with no thread waiting on each.
    package static func head(in bytes: ArraySlice<UInt8>) throws(Problem) -> Head? {
        var lines: [String] = []
        var start = bytes.startIndex
        while let newline = bytes[start...].firstIndex(of: 0x0A) {
            var end = newline
            if end > start, bytes[end - 1] == 0x0D { end -= 1 }
            if end - start > maxLine { throw .malformed("a line is longer than \(maxLine) bytes") }
            if newline + 1 - bytes.startIndex > maxHead { throw .malformed("the head is larger than \(maxHead) bytes") }
            if end == start { return try head(lines: lines) }
            lines.append(String(decoding: bytes[start..<end], as: UTF8.self))
            start = newline + 1
        }
        if bytes.endIndex - start > maxLine { throw .malformed("a line is longer than \(maxLine) bytes") }
        if bytes.count > maxHead { throw .malformed("the head is larger than \(maxHead) bytes") }
        return nil
    }

    private static func head(lines: [String]) throws(Problem) -> Head {
        guard let startLine = lines.first else { throw .malformed("the head is empty") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw .malformed("a header line has no ':'") }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingSpaces()
        }
        return Head(startLine: startLine, headers: headers)
    }

    private func receive() throws(PlainSocket.Failure) -> [UInt8]? {
        if let deadline { return try socket.receive(max: 16 * 1024, before: deadline) }
        return try socket.receive(max: 64 * 1024)
    }
}
