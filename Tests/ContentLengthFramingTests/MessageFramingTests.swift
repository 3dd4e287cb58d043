import Foundation
import ContentLengthFraming
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `Content-Length` framing over a real pipe: what the writer frames the reader takes back,
/// in pieces or at once; a frame it cannot take is skipped with its reason, and reading goes on.
@Suite struct MessageFramingTests {
    /// A pipe: the reader on one end, raw bytes written to the other, then closed.
    func read(_ raw: [UInt8], maximumLength: Int = 1 << 20) -> [MessageReader.Item] {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let writer = ends[1]
        let bytes = raw
        Thread.detachNewThread {
            var done = 0
            while done < bytes.count {
                let count = bytes[done...].withUnsafeBytes { write(writer, $0.baseAddress!, min($0.count, 7)) }
                if count <= 0 { break }
                done += count
            }
            close(writer)
        }
        let reader = MessageReader(descriptor: ends[0], maximumLength: maximumLength)
        var items: [MessageReader.Item] = []
        while true {
            let item = reader.next()
            items.append(item)
            if item == .endOfInput { break }
        }
        close(ends[0])
        return items
    }

    @Test func framesRoundTripThroughThePipe() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let writer = MessageWriter(descriptor: ends[1])
        #expect(writer.send(["method": "initialized"]))
        #expect(writer.send(body: Array("{\"é\":\"😀\"}".utf8)))
        close(ends[1])
        let reader = MessageReader(descriptor: ends[0])
        #expect(reader.next() == .message(Array(#"{"method":"initialized"}"#.utf8)))
        #expect(reader.next() == .message(Array("{\"é\":\"😀\"}".utf8)))
        #expect(reader.next() == .endOfInput)
        close(ends[0])
    }

    @Test func headersEndWithCRLFOrLFAndNamesAnyCase() {
        let raw = Array("Content-Length: 2\r\n\r\n{}content-length:3\nContent-Type: x\n\n[1]".utf8)
        #expect(read(raw) == [.message(Array("{}".utf8)), .message(Array("[1]".utf8)), .endOfInput])
    }

    @Test func aBadFrameIsSkippedAndReadingGoesOn() {
        let raw =
            Array("Content-Type: x\r\n\r\nContent-Length: 40\r\n\r\n".utf8) + [UInt8](repeating: 0x20, count: 40)
            + Array("Content-Length: 2\r\n\r\n{}".utf8)
        let items = read(raw, maximumLength: 10)
        #expect(items.count == 4)
        #expect(items.last == .endOfInput)
        #expect(items[2] == .message(Array("{}".utf8)))
        if case .badFrame(let reason) = items[0] { #expect(reason.contains("without a valid Content-Length")) }
        // Over the limit: its first bytes kept (at most `keptStart`), the rest skipped unread.
        #expect(items[1] == .tooLarge(length: 40, start: [UInt8](repeating: 0x20, count: 40)))
    }

    /// A frame far over the limit is skipped as it comes: only its first 4 KB are kept, and the
    /// next frame is read.
    @Test func aFrameOverTheLimitKeepsOnlyItsStart() {
        let body = Array(#"{"id": 7, "method": "x", "params": ""#.utf8) + [UInt8](repeating: 0x61, count: 100_000)
        let raw = Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body + Array("Content-Length: 2\r\n\r\n{}".utf8)
        let items = read(raw, maximumLength: 1_000)
        #expect(items.count == 3)
        #expect(items[0] == .tooLarge(length: body.count, start: Array(body.prefix(MessageReader.keptStart))))
        #expect(items[1] == .message(Array("{}".utf8)))
    }
}
