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

/// Reads `Content-Length`-framed messages from a file descriptor (a server's stdin, a test's pipe).
public final class MessageReader {
    /// What one read gave.
    public enum Item: Equatable {
        /// One message's body.
        case message([UInt8])
        /// A frame the reader could not take (no or bad `Content-Length`, too large): its bytes
        /// were skipped, and reading goes on with the next frame.
        case badFrame(String)
        /// A frame larger than the reader's limit: its first `start.count` bytes (at most
        /// `keptStart`, for its method, id or document), the rest skipped unread, so it never
        /// takes more memory than one read does.
        case tooLarge(length: Int, start: [UInt8])
        /// The other side closed the stream.
        case endOfInput
    }

    private let descriptor: Int32
    private let maximumLength: Int
    private var buffer: [UInt8] = []
    private var start = 0

    /// `maximumLength`: larger bodies are skipped unread (a JSON text of a document that large
    /// is no editor's).
    public init(descriptor: Int32, maximumLength: Int = 256 << 20) {
        self.descriptor = descriptor
        self.maximumLength = maximumLength
    }

    /// How much of a frame over the limit is kept: enough for the method, the id and a document's URI.
    public static let keptStart = 4 << 10

    /// True when bytes already read wait in the buffer: the descriptor may not be readable even
    /// though a message is there (for a caller that polls before `next()`).
    public var hasBufferedInput: Bool { buffer.count > start }

    /// True when input waits, read or not: a caller may put off work that more input would
    /// redo (a burst of edits is checked once).
    public var hasPendingInput: Bool {
        if hasBufferedInput { return true }
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&ready, 1, 0) > 0 && (ready.revents & Int16(POLLIN)) != 0
    }

    /// The next message, a frame that could not be read, or the end of the input.
    public func next() -> Item {
        while true {
            // Headers end at the first empty line.
            if let end = headerEnd() {
                let header = String(decoding: buffer[start..<end.headerEnd], as: UTF8.self)
                start = end.bodyStart
                var length: Int?
                for line in Self.headerLines(header) {
                    let parts = line.split(separator: ":", maxSplits: 1)
                    guard parts.count == 2 else { continue }
                    if parts[0].trimmingSpaces().lowercased() == "content-length" {
                        length = Int(parts[1].trimmingSpaces())
                    }
                }
                guard let length, length >= 0 else {
                    return .badFrame("a message without a valid Content-Length header: '\(header)'")
                }
                if length > maximumLength {
                    let kept = min(length, Self.keptStart)
                    guard fill(upTo: kept) else { return .endOfInput }
                    let beginning = Array(buffer[start..<(start + kept)])
                    guard skip(length) else { return .endOfInput }
                    return .tooLarge(length: length, start: beginning)
                }
                guard fill(upTo: length) else { return .endOfInput }
                let body = Array(buffer[start..<(start + length)])
                start += length
                compact()
                return .message(body)
            }
            if buffer.count - start > 64 << 10 {
                // 64 KB of header without an empty line: no client sends that; drop it.
                start = buffer.count
                compact()
                return .badFrame("a header of more than 64 KB")
            }
            guard readMore() else { return .endOfInput }
        }
    }

    /// The header's lines, from its last `Content-Length` on: after a frame whose
    /// `Content-Length` was short, the rest of its body comes before the next header (`…}}Content-Length: 52`),
    /// and reading resumes with that header instead of taking every later frame for a bad one.
    static func headerLines(_ header: String) -> [Substring] {
        let bytes = Array(header.utf8)
        let name = Array("content-length".utf8)
        var from = 0
        if bytes.count >= name.count {
            for index in stride(from: bytes.count - name.count, through: 0, by: -1)
            where (0..<name.count).allSatisfy({ bytes[index + $0] | 0x20 == name[$0] }) {
                from = index
                break
            }
        }
        // "\r\n" is one Character: splitting at "\r" or "\n" alone kept two headers as one line.
        return Substring(String(decoding: bytes[from...], as: UTF8.self))
            .split(whereSeparator: { $0 == "\r" || $0 == "\n" || $0 == "\r\n" })
    }

    private func headerEnd() -> (headerEnd: Int, bodyStart: Int)? {
        var index = start
        while index + 1 < buffer.count {
            if buffer[index] == 0x0A {
                if buffer[index + 1] == 0x0A { return (index, index + 2) }
                if index + 2 < buffer.count, buffer[index + 1] == 0x0D, buffer[index + 2] == 0x0A {
                    return (index, index + 3)
                }
            }
            index += 1
        }
        return nil
    }

    /// Reads until `length` body bytes are buffered; false at the end of the input.
    private func fill(upTo length: Int) -> Bool {
        while buffer.count - start < length {
            guard readMore(atLeast: length - (buffer.count - start)) else { return false }
        }
        return true
    }

    /// Drops `length` bytes of input, buffered or not; false at the end of the input.
    private func skip(_ length: Int) -> Bool {
        var left = length
        while true {
            let taken = min(left, buffer.count - start)
            start += taken
            left -= taken
            compact()
            if left == 0 { return true }
            guard readMore(atLeast: min(left, 1 << 20)) else { return false }
        }
    }

    private func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
            start = 0
        } else if start > 1 << 20 {
            buffer.removeFirst(start)
            start = 0
        }
    }

    /// One read(2) of up to `atLeast` bytes (64 KB at least); false at the end of the input or on an error.
    private func readMore(atLeast wanted: Int = 0) -> Bool {
        let size = min(max(64 << 10, wanted), 4 << 20)
        if chunk.count < size { chunk = [UInt8](repeating: 0, count: size) }
        while true {
            let count = chunk.withUnsafeMutableBytes { raw in read(descriptor, raw.baseAddress!, size) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
    }

    /// What read(2) reads into, kept from one read to the next.
    private var chunk: [UInt8] = []
}

/// Writes `Content-Length`-framed messages to a file descriptor. A closed pipe is remembered,
/// not fatal (SIGPIPE must be ignored by the process).
public final class MessageWriter: @unchecked Sendable {
    private let descriptor: Int32
    private let lock = Condition()
    private let encoder: JSONEncoder
    /// True once a write failed: the other side is gone.
    public private(set) var isClosed = false

    public init(descriptor: Int32) {
        self.descriptor = descriptor
        encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
    }

    /// Sends one message; false when it could not be encoded or written.
    @discardableResult
    public func send<Message: Encodable>(_ message: Message) -> Bool {
        guard let body = try? encoder.encode(message) else { return false }
        return send(body: [UInt8](body))
    }

    /// Sends an already encoded body.
    @discardableResult
    public func send(body: [UInt8]) -> Bool {
        var frame = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
        frame += body
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { return false }
        var written = 0
        while written < frame.count {
            let count = frame.withUnsafeBytes { raw in
                write(descriptor, raw.baseAddress! + written, frame.count - written)
            }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                isClosed = true
                return false
            }
            written += count
        }
        return true
    }
}
