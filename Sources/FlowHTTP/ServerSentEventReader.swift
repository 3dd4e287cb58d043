import FlowSupport

/// Reading server-sent events (`text/event-stream`), the client half of what `HTTPServer`
/// writes from an `EventSubscription`, as the HTML standard's event-stream interpretation has
/// it: lines end with CRLF, LF or CR; a blank line ends an event; `event:` names it, `data:`
/// lines make its data (joined by LF); a line starting with `:` is a comment; an event with no
/// data (a keep-alive) is not dispatched. The one reader: the live stream and the debug
/// channel's two ends read through it.
package enum ServerSentEvents {
    /// The bytes read and not yet taken as events; the reading thread's own.
    package struct Buffer {
        package var bytes: [UInt8] = []
        /// Where the line being searched for its end starts (a line start within the current event).
        var searched = 0
        /// The last event ended with a CR that was the last byte read: an LF first in what comes
        /// next is the rest of that line end.
        var crEnded = false

        package init() {}

        /// Takes one complete event (up to a blank line) off the buffer; nil until one is complete.
        package mutating func next() -> (name: String, data: String)? {
            if crEnded, let first = bytes.first {
                if first == 0x0A { bytes.removeFirst() }
                crEnded = false
            }
            while let (end, next) = ServerSentEvents.eventEnd(in: bytes, from: &searched) {
                let event = ServerSentEvents.parse(bytes[..<end])
                crEnded = next == bytes.count && bytes[next - 1] == 0x0D
                bytes.removeFirst(next)
                searched = 0
                if crEnded, let first = bytes.first {
                    if first == 0x0A { bytes.removeFirst() }
                    crEnded = false
                }
                if let event { return event }
            }
            return nil
        }
    }

    /// Where the first event in `bytes` ends, searching line by line from `lineStart` (which
    /// is left at the start of the last incomplete line): the end of its text and where the
    /// next event begins.
    static func eventEnd(in bytes: [UInt8], from lineStart: inout Int) -> (end: Int, next: Int)? {
        var index = lineStart
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 0x0A || byte == 0x0D else {
                index += 1
                continue
            }
            // A CR read last may be the first half of a CRLF: a blank line ends the event anyway
            // (`Buffer` drops the LF if it comes), another line waits for the next byte.
            if byte == 0x0D && index + 1 == bytes.count {
                return index == lineStart ? (lineStart, index + 1) : nil
            }
            let after = byte == 0x0D && bytes[index + 1] == 0x0A ? index + 2 : index + 1
            if index == lineStart { return (lineStart, after) }
            lineStart = after
            index = after
        }
        return nil
    }

    /// An event's name (`message` when it gives none) and its data, or nil when it has no data.
    static func parse(_ text: ArraySlice<UInt8>) -> (name: String, data: String)? {
        var name = ""
        var data: [UInt8] = []
        var hasData = false
        var start = text.startIndex
        while start < text.endIndex {
            var end = start
            while end < text.endIndex, text[end] != 0x0A, text[end] != 0x0D { end += 1 }
            let line = text[start..<end]
            start =
                end < text.endIndex && text[end] == 0x0D && end + 1 < text.endIndex && text[end + 1] == 0x0A
                ? end + 2 : end + 1
            guard line.first != UInt8(ascii: ":") else { continue }
            let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
            var value = colon < line.endIndex ? line[(colon + 1)...] : line[line.endIndex...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
            switch String(decoding: line[..<colon], as: UTF8.self) {
            case "event": name = String(decoding: value, as: UTF8.self)
            case "data":
                if hasData { data.append(0x0A) }
                data += value
                hasData = true
            default: break
            }
        }
        guard hasData else { return nil }
        return (name.isEmpty ? "message" : name, String(decoding: data, as: UTF8.self))
    }
}
