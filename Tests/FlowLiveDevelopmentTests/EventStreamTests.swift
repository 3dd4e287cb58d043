import Testing

@testable import FlowLiveDevelopment

/// The client's reading of the live source's event stream.
@Suite struct EventStreamTests {
    @Test func eventsEndAtABlankLineWhateverTheLineEnds() {
        func end(_ text: String) -> (Int, Int)? {
            EventStream.eventEnd(in: Array(text.utf8), from: 0).map { ($0.end, $0.next) }
        }
        #expect(end("event: a\ndata: 1\n\nrest")! == (16, 18))
        #expect(end("event: a\r\ndata: 1\r\n\r\nrest")! == (17, 21))
        #expect(end(":\n\n")! == (1, 3))
        #expect(end("event: a\ndata: 1\n") == nil)
    }
}
