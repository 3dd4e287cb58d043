import FlowSupport

/// Reading server-sent events (`text/event-stream`), the client half of what `HTTPServer`
/// writes from an `EventSubscription`: events end at a blank line (LF or CRLF line ends).
package enum ServerSentEvents {
    /// The bytes read and not yet taken as events; the reading thread's own.
    package struct Buffer {
        package var bytes: [UInt8] = []
        /// How far `bytes` has been searched for an event's end without finding one.
        var searched = 0

        package init() {}

        /// Takes one complete event (up to a blank line) off the buffer.
        package mutating func next() -> (name: String, data: String)? {
            guard let (end, next) = ServerSentEvents.eventEnd(in: bytes, from: searched) else {
                searched = max(0, bytes.count - 3)
                return nil
            }
            let text = String(decoding: bytes[..<end], as: UTF8.self)
            bytes.removeFirst(next)
            searched = 0
            return ServerSentEvents.parse(text)
        }
    }

    /// An event's name (`message` when it gives none) and its data lines, joined.
    private static func parse(_ text: String) -> (name: String, data: String) {
        var name = "message"
        var data: [String] = []
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.hasPrefix("event:") {
                name = line.dropFirst(6).trimmingSpaces()
            } else if line.hasPrefix("data:") {
                data.append(String(line.dropFirst(5).drop(while: { $0 == " " })))
            }
        }
        return (name, data.joined(separator: "\n"))
    }

    /// Where the first event in `bytes` ends (a blank line: `\n\n` or `\r\n\r\n`), searching
    /// from `start`: the end of its text and where the next event begins.
    package static func eventEnd(in bytes: [UInt8], from start: Int) -> (end: Int, next: Int)? {
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == 0x0A {
                if bytes[index + 1] == 0x0A { return (index, index + 2) }
                if bytes[index + 1] == 0x0D, index + 2 < bytes.count, bytes[index + 2] == 0x0A {
                    return (index > 0 && bytes[index - 1] == 0x0D ? index - 1 : index, index + 3)
                }
            }
            index += 1
        }
        return nil
    }
}
