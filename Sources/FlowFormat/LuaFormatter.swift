import LuaSyntax

/// Formats one parsed chunk: walks the syntax tree in source order while consuming the
/// chunk's tokens one by one, so every token's own text (numerals, strings, names) and every
/// comment between them is carried into the layout, and builds the `Doc` StyLua's rules give.
struct LuaFormatter {
    let tree: SyntaxTree
    let stream: LuaTokenStream
    let options: FormatOptions
    /// The bytes whose top-level statements are formatted (all when nil).
    var range: Range<Int>?
    /// The next token to consume.
    var cursor = 0
    /// Comments emitted so far (a table or argument list holding one is laid out broken).
    var commentCount = 0
    /// The token whose leading comments were already emitted (at the end of a block).
    var leadingDoneFor = -1
    /// A line comment ended the previous token's line: the groups around the next token break.
    var pendingBreak = false
    /// Comments that broke the groups around them so far (a run of operators holding one hangs).
    var breakCount = 0
    /// How many blocks deep the current statement is.
    var depth = 0
    /// The first token of the statement being formatted.
    var statementStart = 0
    /// At most how many levels of indentation the functions that are values (not statements)
    /// around the cursor add to their blocks' depth: each level the layout opens before a
    /// function's keyword is opened by a token of its statement before the keyword (a
    /// bracket, an operator, `=`), so their count bounds it.
    var functionIndent = 0
    /// Where statements are printed as they are formatted (LuaFormatter+Emission); nil when
    /// the whole layout is built first.
    var printer: DocPrinter?
    /// The bytes of a settled statement whose text differs from its source, kept for the next.
    var scratch: [UInt8] = []

    init(tree: SyntaxTree, stream: LuaTokenStream, options: FormatOptions) {
        self.tree = tree
        self.stream = stream
        self.options = options
    }

    var kind: LuaTokenKind { stream.tokens[cursor].kind }

    func kind(at offset: Int) -> LuaTokenKind {
        let index = min(cursor + offset, stream.tokens.count - 1)
        return stream.tokens[index].kind
    }

    /// Consumes the current token, printed as `text` (its source text when nil), with the
    /// comments before it and the one after it on its line.
    mutating func token(_ expected: LuaTokenKind, text: String? = nil, keepingTrailing: Bool = true) -> Doc {
        precondition(
            kind.is(expected),
            "formatter out of step: \(expected.display) expected, \(kind.display) found")
        let index = cursor
        cursor += 1
        let doc = text.map { Doc.text($0) } ?? sourceText(index)
        if !pendingBreak && (index == leadingDoneFor || !stream.hasComment(before: index))
            && (!keepingTrailing || !stream.hasComment(before: index + 1))
        {
            return doc  // no comment around it: most tokens
        }
        var parts = leadingComments(of: index, atStatement: false)
        breakAfterComment(&parts)
        parts.append(doc)
        if keepingTrailing { appendTrailingComments(of: index, to: &parts) }
        return .concat(parts)
    }

    /// Token `index`'s text as it is in the source; a keyword's or a symbol's layout made once.
    func sourceText(_ index: Int) -> Doc {
        let token = stream.tokens[index]
        if let fixed = Self.fixedTexts[Int(token.kind.tag)], token.length == fixed.length {
            return fixed.doc
        }
        return sourceSlice(index) ?? .text(stream.text(index))
    }

    /// Token `index` as a slice of the source, when it is on one line.
    func sourceSlice(_ index: Int) -> Doc? {
        let token = stream.tokens[index]
        var width = 0
        for byte in stream.source[Int(token.offset)..<Int(token.offset + token.length)] {
            if byte == 10 || byte == 13 { return nil }
            if byte & 0xC0 != 0x80 { width += 1 }
        }
        return .slice(start: token.offset, length: token.length, width: width)
    }

    /// The layout of each keyword and symbol (every kind but names, strings and numerals), by kind.
    static let fixedTexts: [(doc: Doc, length: Int32)?] = {
        var texts = [(doc: Doc, length: Int32)?](repeating: nil, count: 256)
        for raw in 0...UInt8.max {
            guard let kind = LuaTokenKind(rawValue: raw), ![.eof, .name, .string, .number].contains(kind) else {
                continue
            }
            let text = kind.display
            texts[Int(kind.tag)] = (Doc.text(text), Int32(text.utf8.count))
        }
        return texts
    }()

    /// Consumes a token that the output drops (a `;`, call parentheses that go), keeping its comments.
    mutating func dropToken(_ expected: LuaTokenKind) -> Doc {
        precondition(
            kind.is(expected),
            "formatter out of step: \(expected.display) expected, \(kind.display) found")
        let index = cursor
        cursor += 1
        var parts = leadingComments(of: index, atStatement: false)
        breakAfterComment(&parts)
        appendTrailingComments(of: index, to: &parts)
        return .concat(parts)
    }

    /// Breaks the groups around the token about to be added when a line comment ended the line
    /// before it: only those, so a comment after the last token of a table or a condition
    /// leaves that table or condition as it is.
    mutating func breakAfterComment(_ parts: inout [Doc]) {
        guard pendingBreak else { return }
        pendingBreak = false
        breakCount += 1
        parts.insert(.breakParent, at: 0)
    }

    /// The comments on lines of their own before token `index`: each on its line, with at
    /// most one blank line kept between them and before the token when it starts a statement.
    mutating func leadingComments(of index: Int, atStatement: Bool, keepBlank: Bool = false) -> [Doc] {
        guard index != leadingDoneFor, stream.hasComment(before: index) || (atStatement && keepBlank) else { return [] }
        if !stream.hasComment(before: index) {
            // Only spacing before it: a blank line is all there is to keep.
            return index > 0 && lineBreaks(before: index) >= 2 ? [.hardLine] : []
        }
        var parts: [Doc] = []
        var seenNewline = index == 0
        var first = true
        var comments = 0
        let stream = self.stream
        stream.forEachTrivia(before: index) { piece in
            switch piece {
            case .newlines(let count):
                if !seenNewline {
                    seenNewline = true
                    if count >= 2 && atStatement && keepBlank { parts.append(.hardLine) }
                } else if count >= 2 && atStatement && !first {
                    parts.append(.hardLine)
                }
            case .comment(let start, let end, let isLong, let ascii):
                guard seenNewline else { return }  // the previous token's trailing comment
                first = false
                comments += 1
                parts.append(Self.comment(in: stream, start: start, end: end, isLong: isLong, ascii: ascii))
                parts.append(.hardLine)
            }
        }
        commentCount += comments
        if !atStatement { breakCount += comments }
        return parts
    }

    /// The layout of the comment `start..<end` of the source: a line comment of ASCII text
    /// (most) is its bytes, without its trailing spaces, made into no `String`; others their text.
    static func comment(in stream: LuaTokenStream, start: Int, end: Int, isLong: Bool, ascii: Bool) -> Doc {
        guard ascii && !isLong else {
            return .text(LuaTokenStream.commentText(stream.source, from: start, to: end, isLong: isLong))
        }
        let trimmed = stream.trimmedEnd(ofComment: start, end)
        return .slice(start: Int32(start), length: Int32(trimmed - start), width: trimmed - start)
    }

    /// How many line breaks lie before token `index` (`\r\n` and `\n\r` one each), when only
    /// spacing does.
    func lineBreaks(before index: Int) -> Int {
        let source = stream.source
        var position = stream.end(index - 1)
        let stop = Int(stream.tokens[index].offset)
        var count = 0
        while position < stop {
            let byte = source[position]
            position += 1
            guard byte == 10 || byte == 13 else { continue }
            count += 1
            if position < stop, source[position] == 10 || source[position] == 13, source[position] != byte {
                position += 1
            }
        }
        return count
    }

    /// The comments after token `index` on its own line: a line comment goes to the end of the
    /// output line; a block comment stays in place.
    mutating func appendTrailingComments(of index: Int, to parts: inout [Doc]) {
        guard stream.hasComment(before: index + 1) else { return }
        let pieces = stream.trivia(before: index + 1)
        for (position, piece) in pieces.enumerated() {
            guard case .comment(let text, let isLong) = piece else { return }
            let endsLine: Bool
            if position + 1 < pieces.count, case .newlines = pieces[position + 1] {
                endsLine = true
            } else {
                endsLine = position + 1 == pieces.count && stream.tokens[index + 1].kind.is(.eof)
            }
            if isLong && !text.contains("\n") && !endsLine {
                parts.append(.space)
                parts.append(.text(text))
            } else {
                if !isLong || text.contains("\n") { commentCount += 1 }
                parts.append(.lineSuffix(" " + text))
                pendingBreak = true
            }
        }
    }
}

extension LuaTokenKind {
    /// The case's tag, its one byte in memory: distinct for each case (an enum without
    /// payloads). `rawValue` and the synthesized `==` are calls into LuaSyntax, which the
    /// formatter's and the fast path's reading of every token showed in profiles.
    @inline(__always)
    var tag: UInt8 { unsafeBitCast(self, to: UInt8.self) }

    /// Whether this is `kind`, by tag.
    @inline(__always)
    func `is`(_ kind: LuaTokenKind) -> Bool { tag == kind.tag }
}
