/// A chunk's tokens in order, with what lies between them (spacing and comments) read on
/// demand: the formatter's view of the source. Validation never builds one, so the lexer's
/// hot loop keeps skipping comments without recording them.
public struct LuaTokenStream: Sendable {
    /// One piece of what lies between two tokens.
    package enum Trivia: Equatable, Sendable {
        /// `count` line breaks in a row (spaces and tabs between them ignored).
        case newlines(Int)
        /// A comment's text, from `--` to its end (a line comment's line break not included).
        case comment(String, isLong: Bool)
    }

    /// The tokens, the last one `.eof` (at the end of the source).
    public let tokens: LuaTokens
    /// The source bytes.
    package let source: [UInt8]
    /// Where the first token may start: after a byte order mark and a `#` first line.
    package let preludeEnd: Int

    /// Lexes the whole chunk; throws the first lexical error.
    package init(source: [UInt8]) throws(LuaSyntaxError) {
        var bytes = source
        bytes.append(contentsOf: [0, 0, 0, 0])
        let outcome: Result<(LuaTokens, Int), LuaSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            var lexer = LuaLexer(base: buffer.baseAddress!, count: source.count)
            let preludeEnd = lexer.pos
            var tokens = ParseBuffer<LuaToken>(capacity: source.count / 4)
            do throws(LuaSyntaxError) {
                while true {
                    let token = try lexer.next()
                    tokens.append(token)
                    if token.kind == .eof { break }
                }
            } catch {
                return .failure(error)
            }
            let count = tokens.count
            return .success((LuaTokens(taking: &tokens, count: count, sourceCount: source.count), preludeEnd))
        }
        let (tokens, preludeEnd) = try outcome.get()
        self.init(ended: tokens, source: source, preludeEnd: preludeEnd)
    }

    /// The tokens a parser read (`LuaParser.parseWithTokens`), through `.eof`, as `init(source:)`
    /// would lex them.
    init(ended tokens: LuaTokens, source: [UInt8], preludeEnd: Int) {
        self.tokens = tokens
        self.source = source
        self.preludeEnd = preludeEnd
    }

    /// The source text of token `index`.
    package func text(_ index: Int) -> String {
        let token = tokens[index]
        let start = Int(token.offset)
        return source.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[start..<(start + Int(token.length))]), as: UTF8.self)
        }
    }

    /// Where token `index` ends (one past its last byte).
    @inlinable
    public func end(_ index: Int) -> Int { Int(tokens[index].offset &+ tokens[index].length) }

    /// The spacing and comments before token `index` (after the previous token, or after the
    /// prelude for the first token).
    package func trivia(before index: Int) -> [Trivia] {
        let start = index == 0 ? preludeEnd : end(index - 1)
        return Self.trivia(in: source, from: start, to: Int(tokens[index].offset))
    }

    /// Whether anything but spaces and line breaks (a comment) lies before token `index`: a
    /// bit the lexer set as it skipped one.
    @inlinable
    public func hasComment(before index: Int) -> Bool { tokens[index].commentBefore }

    /// One piece of what lies between two tokens, without its text: what `trivia` holds, read
    /// in place (`forEachTrivia`), so a caller that prints comments from the source makes no
    /// `String` for them.
    package enum TriviaSpan: Equatable, Sendable {
        /// `count` line breaks in a row.
        case newlines(Int)
        /// A comment: its bytes `start..<end` of the source, from `--` to its end (a line
        /// comment's line break not included; `trimmedEnd` leaves out its trailing spaces, as
        /// `trivia` does); `ascii`: every byte in it is ASCII (its text is then those bytes).
        case comment(start: Int, end: Int, isLong: Bool, ascii: Bool)
    }

    /// Calls `body` with each piece of the spacing and comments before token `index`, in order.
    @inline(__always)
    package func forEachTrivia(before index: Int, _ body: (TriviaSpan) -> Void) {
        let start = index == 0 ? preludeEnd : end(index - 1)
        Self.forEachTrivia(in: source, from: start, to: Int(tokens[index].offset), body)
    }

    /// Splits `source[start..<stop]`, which holds only spacing and comments, into pieces.
    static func trivia(in source: [UInt8], from start: Int, to stop: Int) -> [Trivia] {
        var pieces: [Trivia] = []
        forEachTrivia(in: source, from: start, to: stop) { piece in
            switch piece {
            case .newlines(let count): pieces.append(.newlines(count))
            case .comment(let start, let end, let isLong, _):
                pieces.append(.comment(commentText(source, from: start, to: end, isLong: isLong), isLong: isLong))
            }
        }
        return pieces
    }

    /// Walks `source[start..<stop]`, which holds only spacing and comments: the one reading of
    /// trivia that `trivia` and `forEachTrivia(before:)` share.
    @inline(__always)
    static func forEachTrivia(in source: [UInt8], from start: Int, to stop: Int, _ body: (TriviaSpan) -> Void) {
        var position = start
        var newlines = 0
        while position < stop {
            let byte = source[position]
            if byte == 10 || byte == 13 {
                let next = position + 1 < stop ? source[position + 1] : 0
                position += (next == 10 || next == 13) && next != byte ? 2 : 1
                newlines += 1
                continue
            }
            if byte != UInt8(ascii: "-") {
                position += 1
                continue
            }
            if newlines > 0 { body(.newlines(newlines)) }
            newlines = 0
            let commentStart = position
            position += 2
            var isLong = false
            var ascii = true
            if let level = longBracketLevel(source, at: position, stop: stop) {
                isLong = true
                position = longBracketEnd(source, from: position + level + 2, level: level, stop: stop)
                for byte in source[commentStart..<position] where byte >= 0x80 {
                    ascii = false
                    break
                }
            } else {
                while position < stop && source[position] != 10 && source[position] != 13 {
                    if source[position] >= 0x80 { ascii = false }
                    position += 1
                }
            }
            body(.comment(start: commentStart, end: position, isLong: isLong, ascii: ascii))
        }
        if newlines > 0 { body(.newlines(newlines)) }
    }

    /// The level of a long bracket `[==[` opening at `position`, or nil.
    static func longBracketLevel(_ source: [UInt8], at position: Int, stop: Int) -> Int? {
        guard position < stop, source[position] == UInt8(ascii: "[") else { return nil }
        var cursor = position + 1
        while cursor < stop && source[cursor] == UInt8(ascii: "=") { cursor += 1 }
        guard cursor < stop, source[cursor] == UInt8(ascii: "[") else { return nil }
        return cursor - position - 1
    }

    /// One past the `]==]` closing a long bracket of `level` whose text starts at `position`.
    static func longBracketEnd(_ source: [UInt8], from position: Int, level: Int, stop: Int) -> Int {
        var cursor = position
        while cursor < stop {
            if source[cursor] == UInt8(ascii: "]") {
                var probe = cursor + 1
                while probe < stop && source[probe] == UInt8(ascii: "=") { probe += 1 }
                if probe - cursor - 1 == level, probe < stop, source[probe] == UInt8(ascii: "]") { return probe + 1 }
            }
            cursor += 1
        }
        return stop
    }

    /// A comment's text: a line comment without its trailing spaces, tabs, vertical tabs and
    /// form feeds, trimmed as bytes (when an ASCII byte precedes them, the last characters are
    /// exactly those bytes; else as characters, as before).
    package static func commentText(_ source: [UInt8], from start: Int, to stop: Int, isLong: Bool) -> String {
        var end = stop
        if !isLong {
            end = trimmedEnd(source, start, stop)
            if end < stop && source[end - 1] >= 0x80 {
                return trimmedTrailingSpace(String(decoding: source[start..<stop], as: UTF8.self))
            }
        }
        return source.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self)
        }
    }

    /// Where line comment `start..<end` ends without its trailing spaces, tabs, vertical tabs
    /// and form feeds.
    package func trimmedEnd(ofComment start: Int, _ end: Int) -> Int { Self.trimmedEnd(source, start, end) }

    private static func trimmedEnd(_ source: [UInt8], _ start: Int, _ end: Int) -> Int {
        var trimmed = end
        while trimmed > start, isTrailingSpace(source[trimmed - 1]) { trimmed -= 1 }
        return trimmed
    }

    /// A space, tab, vertical tab or form feed.
    private static func isTrailingSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 || byte == 11 || byte == 12 }

    private static func trimmedTrailingSpace(_ text: String) -> String {
        var scalars = Substring(text)
        while let last = scalars.last, last == " " || last == "\t" || last == "\u{0B}" || last == "\u{0C}" {
            scalars = scalars.dropLast()
        }
        return String(scalars)
    }
}
