import FlowHTTP
import Testing

/// The one server-sent event reader, against the HTML standard's event-stream rules: CRLF, LF
/// and CR line ends (even split between two reads), comments, fields without a space, several
/// data lines, and no event for a block without data (a keep-alive).
@Suite struct ServerSentEventReaderTests {
    /// Every event in `pieces`, fed one piece at a time.
    func events(_ pieces: [String]) -> [String] {
        var buffer = ServerSentEvents.Buffer()
        var out: [String] = []
        for piece in pieces {
            buffer.bytes += Array(piece.utf8)
            while let event = buffer.next() { out.append("\(event.name)=\(event.data)") }
        }
        return out
    }

    /// `text` fed whole, then byte by byte: the same events either way.
    func events(_ text: String) -> [String] {
        let whole = events([text])
        #expect(events(text.unicodeScalars.map { String($0) }) == whole, "\(text.debugDescription)")
        return whole
    }

    @Test func everyLineEndEndsLinesAndEvents() {
        #expect(events("event: change\ndata: {}\n\n") == ["change={}"])
        #expect(events("event: change\r\ndata: {}\r\n\r\n") == ["change={}"])
        #expect(events("event: change\rdata: {}\r\r") == ["change={}"])
        #expect(events("data: a\r\ndata: b\n\rdata: c\r\r\n") == ["message=a\nb", "message=c"])
    }

    @Test func aCRAtTheEndOfAReadWaitsForItsLF() {
        #expect(events(["data: a\r", "\n", "\r", "\n"]) == ["message=a"])
        #expect(events(["data: a\r", "\r"]) == ["message=a"])
        #expect(events(["data: a\r\n\r"]) == ["message=a"])
        #expect(events(["data: a\r", "\r", "\n", "data: b\n\n"]) == ["message=a", "message=b"])
        #expect(events(["data: a\r", "\ndata: b\n\n"]) == ["message=a\nb"])
    }

    @Test func fieldsCommentsAndKeepAlives() {
        #expect(events(":\n\n") == [])
        #expect(events(": ping\n\nevent: hello\n\n") == [])
        #expect(events("event:x\ndata:no space\n\n") == ["x=no space"])
        #expect(events("data:  two spaces\n\n") == ["message= two spaces"])
        #expect(events("data\n\n") == ["message="])
        #expect(events("id: 7\nretry: 10\ndata: d\n: note\n\n") == ["message=d"])
        #expect(events("data: a: b\n\n") == ["message=a: b"])
        #expect(events("event: one\ndata: 1\n\ndata: 2\n\n") == ["one=1", "message=2"])
    }

    @Test func anIncompleteEventStaysInTheBuffer() {
        var buffer = ServerSentEvents.Buffer()
        buffer.bytes = Array("data: partial\n".utf8)
        #expect(buffer.next() == nil)
        #expect(buffer.bytes.count == 14)
        buffer.bytes += Array("\n".utf8)
        #expect(buffer.next()?.data == "partial")
        #expect(buffer.bytes.isEmpty)
    }
}
