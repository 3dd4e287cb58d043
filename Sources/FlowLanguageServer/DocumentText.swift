import LanguageServerProtocol

/// How a client counts characters in a line: LSP's default UTF-16 code units, or UTF-8 bytes
/// when both sides agreed on `utf-8` at initialisation.
public enum PositionEncoding: String, Sendable {
    case utf16 = "utf-16"
    case utf8 = "utf-8"
}

/// A document's text as bytes, with where each line starts: converts LSP positions to byte
/// offsets and back, and applies a client's changes.
public struct DocumentText: Sendable {
    public private(set) var bytes: [UInt8]
    /// The byte offset where each line starts (line 0 at 0).
    public private(set) var lineStarts: [Int] = [0]

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        indexLines()
    }

    public init(_ string: String) {
        self.init(Array(string.utf8))
    }

    private mutating func indexLines() {
        lineStarts = [0]
        bytes.withUnsafeBufferPointer { buffer in
            for index in buffer.indices where buffer[index] == 0x0A { lineStarts.append(index + 1) }
        }
    }

    public var lineCount: Int { lineStarts.count }

    /// The bytes of `line` (0-based) without its line break; empty past the end.
    public func line(_ line: Int) -> ArraySlice<UInt8> {
        guard line >= 0, line < lineStarts.count else { return [] }
        var end = line + 1 < lineStarts.count ? lineStarts[line + 1] - 1 : bytes.count
        if end > lineStarts[line], bytes[end - 1] == 0x0D { end -= 1 }
        return bytes[lineStarts[line]..<end]
    }

    /// The byte offset of `position`, clamped to the document (a line past the end is its end,
    /// a character past a line's end is that end).
    public func offset(of position: Position, encoding: PositionEncoding) -> Int {
        guard position.line >= 0 else { return 0 }
        guard position.line < lineStarts.count else { return bytes.count }
        let text = line(position.line)
        return text.startIndex + Self.byteColumn(of: max(0, position.character), in: text, encoding: encoding)
    }

    /// The position of a 1-based line and byte column (a compiler's place), clamped to the text.
    public func position(line: Int, byteColumn: Int, encoding: PositionEncoding) -> Position {
        let index = max(0, min(line - 1, lineStarts.count - 1))
        let text = self.line(index)
        let column = max(0, min(byteColumn - 1, text.count))
        return Position(line: index, character: Self.character(ofByteColumn: column, in: text, encoding: encoding))
    }

    /// The position of a byte offset.
    public func position(ofOffset offset: Int, encoding: PositionEncoding) -> Position {
        let clamped = max(0, min(offset, bytes.count))
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= clamped { low = mid } else { high = mid - 1 }
        }
        return position(line: low + 1, byteColumn: clamped - lineStarts[low] + 1, encoding: encoding)
    }

    /// Applies one change: the whole text when `range` is nil, else `range` replaced by `text`.
    public mutating func apply(_ change: TextDocumentContentChangeEvent, encoding: PositionEncoding) {
        guard let range = change.range else {
            bytes = Array(change.text.utf8)
            indexLines()
            return
        }
        let start = offset(of: range.start, encoding: encoding)
        let end = max(start, offset(of: range.end, encoding: encoding))
        bytes.replaceSubrange(start..<end, with: change.text.utf8)
        indexLines()
    }

    /// The byte column (0-based) a character offset falls on, within one line.
    static func byteColumn(of character: Int, in line: ArraySlice<UInt8>, encoding: PositionEncoding) -> Int {
        if encoding == .utf8 { return min(character, line.count) }
        var units = 0
        var index = line.startIndex
        while index < line.endIndex, units < character {
            let (length, width) = scalarSize(line[index])
            index = min(line.endIndex, index + length)
            units += width
        }
        return index - line.startIndex
    }

    /// The character offset of a byte column (0-based) within one line.
    static func character(ofByteColumn column: Int, in line: ArraySlice<UInt8>, encoding: PositionEncoding) -> Int {
        if encoding == .utf8 { return column }
        var units = 0
        var index = line.startIndex
        let end = line.startIndex + column
        while index < end {
            let (length, width) = scalarSize(line[index])
            index += length
            units += width
        }
        return units
    }

    /// The bytes of a UTF-8 sequence starting with `lead`, and its UTF-16 code units (a stray
    /// continuation byte counts as one of each, as a decoder's replacement character would).
    @inline(__always) static func scalarSize(_ lead: UInt8) -> (bytes: Int, units: Int) {
        switch lead {
        case 0..<0xC0: return (1, 1)
        case 0xC0..<0xE0: return (2, 1)
        case 0xE0..<0xF0: return (3, 1)
        default: return (4, 2)
        }
    }
}
