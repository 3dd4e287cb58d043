/// luacheck's 6xx classes, read from a module's bytes: a line of only whitespace (611),
/// trailing whitespace in code (612), in a long string (613) or in a comment (614), a space
/// before a tab in the indentation (621), and a line longer than the limit (631, noted with
/// its length and whether it ends in code, a string or a comment, so each limit of
/// luacheck's can apply).
///
/// One pass over the bytes, knowing only whether it is in code, a string or a comment: each
/// state steps over what cannot matter to it in one tight loop.
struct WhitespaceLint {
    private enum State: Equatable {
        case code
        case shortString(UInt8)
        case longString(Int)
        case shortComment
        case longComment(Int)
    }

    private let bytes: UnsafePointer<UInt8>
    private let count: Int
    private var state = State.code
    private var line: Int32 = 1
    private var lineStart = 0
    private var index = 0
    private var findings: [LintFinding] = []

    private init(bytes: UnsafePointer<UInt8>, count: Int) {
        self.bytes = bytes
        self.count = count
    }

    static func check(_ source: UnsafeRawBufferPointer, into findings: inout [LintFinding]) {
        guard let base = source.baseAddress else { return }
        var scan = WhitespaceLint(bytes: base.assumingMemoryBound(to: UInt8.self), count: source.count)
        swap(&scan.findings, &findings)
        scan.run()
        swap(&scan.findings, &findings)
    }

    private mutating func run() {
        // A first line starting with `#` is not Lua (lua5.4 skips it).
        if count > 0, bytes[0] == UInt8(ascii: "#") {
            while index < count, bytes[index] != 0x0A, bytes[index] != 0x0D { index += 1 }
        }
        checkIndentation()
        while index < count {
            if case .code = state {
                skipPlainCode()
                if index == count { break }
            }
            let byte = bytes[index]
            if byte == 0x0A || byte == 0x0D {
                breakLine(byte)
                continue
            }
            switch state {
            case .code: stepCode(byte)
            case .shortString(let quote): stepShortString(byte, quote: quote)
            case .longString(let level), .longComment(let level): stepLongBracket(level: level)
            case .shortComment: stepShortComment()
            }
        }
        if lineStart < count { endLine(at: count) }
    }

    // MARK: Steps

    /// Most bytes of code are nothing to this scan: a tight loop steps over them (the scan was 7%
    /// of validate's CPU on the benchmark tree: Benchmarks/README.md, lint speed).
    @inline(__always) private mutating func skipPlainCode() {
        while index + 8 <= count {
            let skip = ByteWord.beforePlainCodeEnd(word(at: index))
            index += skip
            if skip < 8 { break }
        }
        while index < count, !Self.endsPlainCode(bytes[index]) { index += 1 }
    }

    /// A line break at `index` (`\r\n` and `\n\r` are one).
    private mutating func breakLine(_ byte: UInt8) {
        endLine(at: index)
        if index + 1 < count, bytes[index + 1] != byte, bytes[index + 1] == 0x0A || bytes[index + 1] == 0x0D {
            index += 1
        }
        index += 1
        line += 1
        lineStart = index
        if state == .shortComment { state = .code }
        if state == .code { checkIndentation() }
    }

    /// In code, at what may open a comment or a string.
    private mutating func stepCode(_ byte: UInt8) {
        if byte == UInt8(ascii: "-"), index + 1 < count, bytes[index + 1] == UInt8(ascii: "-") {
            if let level = longBracketLevel(at: index + 2) {
                state = .longComment(level)
                index += 4 + level
            } else {
                state = .shortComment
                index += 2
            }
            return
        }
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
            state = .shortString(byte)
        } else if byte == UInt8(ascii: "["), let level = longBracketLevel(at: index) {
            state = .longString(level)
            index += 2 + level
            return
        }
        index += 1
    }

    private mutating func stepShortString(_ byte: UInt8, quote: UInt8) {
        if byte == UInt8(ascii: "\\") {
            // An escaped line break continues the string on the next line.
            if index + 1 < count, bytes[index + 1] != 0x0A, bytes[index + 1] != 0x0D { index += 1 }
        } else if byte == quote {
            state = .code
            index += 1
            return
        }
        index += 1
        while index < count, bytes[index] != quote, bytes[index] != UInt8(ascii: "\\"), bytes[index] != 0x0A,
            bytes[index] != 0x0D
        {
            index += 1
        }
    }

    private mutating func stepLongBracket(level: Int) {
        if closesLongBracket(at: index, level: level) {
            state = .code
            index += 2 + level
            return
        }
        index += 1
        while index + 8 <= count {
            let skip = ByteWord.beforeLineBreakOrBracket(word(at: index))
            index += skip
            if skip < 8 { break }
        }
        while index < count, bytes[index] != UInt8(ascii: "]"), bytes[index] != 0x0A, bytes[index] != 0x0D {
            index += 1
        }
    }

    /// Nothing but the line's end matters in a short comment.
    private mutating func stepShortComment() {
        while index + 9 <= count {
            let skip = ByteWord.beforeLineBreak(word(at: index + 1))
            index += skip
            if skip < 8 { break }
        }
        while index + 1 < count, bytes[index + 1] != 0x0A, bytes[index + 1] != 0x0D { index += 1 }
        index += 1
    }

    // MARK: Lines

    /// The findings of the line that ends at `end`, the offset of its line break (or of the end
    /// of the source).
    private mutating func endLine(at end: Int) {
        var first = end
        while first > lineStart,
            bytes[first - 1] == 0x20 || bytes[first - 1] == 0x09 || bytes[first - 1] == 0x0C
                || bytes[first - 1] == 0x0B
        {
            first -= 1
        }
        // What the line ends in, by the class of its trailing whitespace: 612 code, 613 a
        // string, 614 a comment.
        let trailing: any LintClass.Type
        switch state {
        case .longString, .shortString: trailing = TrailingWhitespaceInStringRule.self
        case .shortComment, .longComment: trailing = TrailingWhitespaceInCommentRule.self
        case .code: trailing = TrailingWhitespaceRule.self
        }
        if first < end {
            if first == lineStart, state == .code {
                findings.append(WhitespaceOnlyLineRule.finding(line: line, column: 1))
            } else {
                findings.append(trailing.finding(line: line, column: Int32(first - lineStart + 1)))
            }
        }
        noteLength(end: end)
    }

    /// 631: the line's length in characters, not bytes (a UTF-8 continuation byte starts none).
    /// A line of no more bytes than the limit has no more characters either, so most lines are
    /// not counted; those past `shortestLimit` are noted, and `LintRules` keeps those past the
    /// limit that applies.
    private mutating func noteLength(end: Int) {
        guard end - lineStart > Self.shortestLimit else { return }
        var length = 0
        for offset in lineStart..<end where bytes[offset] & 0xC0 != 0x80 { length += 1 }
        guard length > Self.shortestLimit else { return }
        let kind: String
        switch state {
        case .longString, .shortString: kind = "string"
        case .shortComment, .longComment: kind = "comment"
        case .code: kind = "code"
        }
        findings.append(LineTooLongRule.finding(line: line, column: 0, name: String(length), detail: kind))
    }

    /// 621: a space followed by a tab in the indentation of a line of code.
    private mutating func checkIndentation() {
        var offset = lineStart
        var sawSpace = false
        while offset < count, bytes[offset] == 0x20 || bytes[offset] == 0x09 {
            if bytes[offset] == 0x20 {
                sawSpace = true
            } else if sawSpace {
                findings.append(InconsistentIndentationRule.finding(line: line, column: 1))
                return
            }
            offset += 1
        }
    }

    // MARK: Bytes

    /// Eight bytes from `offset` (at most `count - 8`), to step over them at once.
    @inline(__always) private func word(at offset: Int) -> UInt64 {
        UnsafeRawPointer(bytes + offset).loadUnaligned(as: UInt64.self)
    }

    /// `[` `=`* `[` at `offset`: the number of `=`.
    private func longBracketLevel(at offset: Int) -> Int? {
        guard offset < count, bytes[offset] == UInt8(ascii: "[") else { return nil }
        var level = 0
        var next = offset + 1
        while next < count, bytes[next] == UInt8(ascii: "=") {
            level += 1
            next += 1
        }
        return next < count && bytes[next] == UInt8(ascii: "[") ? level : nil
    }

    private func closesLongBracket(at offset: Int, level: Int) -> Bool {
        guard bytes[offset] == UInt8(ascii: "]") else { return false }
        var next = offset + 1
        for _ in 0..<level {
            guard next < count, bytes[next] == UInt8(ascii: "=") else { return false }
            next += 1
        }
        return next < count && bytes[next] == UInt8(ascii: "]")
    }

    /// Whether a byte ends a run of plain code: a line break, or what may open a comment or a
    /// string (`-`, a quote, `[`). A bit test on two words, without branches to mispredict.
    @inline(__always) static func endsPlainCode(_ byte: UInt8) -> Bool {
        let low: UInt64 = 1 << 0x0A | 1 << 0x0D | 1 << 0x22 | 1 << 0x27 | 1 << 0x2D
        let high: UInt64 = 1 << (0x5B - 64)
        let word = byte < 64 ? low : byte < 128 ? high : 0
        return (word >> UInt64(byte & 63)) & 1 != 0
    }

    /// Lines at most this long are never noted: a configured `max_line_length` below it is
    /// taken as this.
    static let shortestLimit = 80
}
