import LuaSyntax

/// The fast path: a statement whose formatted text is known from its tokens alone is taken as
/// one text, without building its layout. That holds for a statement without comments inside
/// (one after it is kept as the full path keeps it) and without a function, whose short
/// strings are written in the quotes `quote_style` gives (StringQuotes), whose calls of a
/// string without parentheses get them, and whose tokens spaced as StyLua spaces them flat (one
/// space around binary operators and `=`, after `,` and inside a table's braces; none inside
/// parentheses and brackets, around `.` and `:`, after a unary operator but `not`) fit in
/// `column_width` at its indentation (its block's depth; in a function that is a value, at
/// most `functionIndent` levels more): its flat layout fits, so the printer prints it flat,
/// and that is this text. A statement holding a table respaced is measured with the table's
/// source width (StyLua reads a table's width in the source, `SettledWalk`). One across lines
/// is taken when no line starts with a binary operator and no `{` ends a line (flat, the same
/// text). Anything else, or any doubt, takes the full path. `FormatOptions.settledStatements`
/// turns it off; SettledStatementTests format Debian's Lua both ways and expect the same bytes.
extension LuaFormatter {
    /// The statement `id` as its source text when the fast path applies (the cursor then past
    /// it), else nil (nothing consumed).
    mutating func settledStatement(_ id: SyntaxTree.NodeID) -> Doc? {
        guard let (last, respaced, extra) = settledStatementEnd(id) else { return nil }
        let (text, _, length) = settledText(last: last, respaced: respaced)
        guard (depth + functionIndent) * options.indentColumns + length + extra <= options.columnWidth else {
            return nil
        }
        cursor = last + 1
        guard stream.hasComment(before: last + 1) else { return text }
        var parts = [text]
        appendTrailingComments(of: last, to: &parts)
        return .concat(parts)
    }

    /// The last token of statement `id` (at the cursor) and whether its text is made from its
    /// tokens (`settledEnd`), when the fast path takes it but for its width; else nil.
    func settledStatementEnd(_ id: SyntaxTree.NodeID) -> (last: Int, respaced: Bool, extra: Int)? {
        guard settledAllowed else { return nil }
        switch tree[id].kind {
        case .local, .assignment, .callStatement, .returnStatement, .breakStatement, .gotoStatement: break
        default: return nil
        }
        guard let (last, respaced, extra) = settledEnd(), !keepsSemicolon(after: last),
            !hasLongTrailingComment(after: last)
        else {
            return nil
        }
        return (last, respaced, extra)
    }

    /// The text of the tokens from the cursor to `last` as the fast path writes them (a slice
    /// of the source when it is their source), its width and its length in bytes. A statement
    /// is taken when its length fits: StyLua measures some statements (`return a, b`, a value
    /// after `=` that is a run of operators) by their bytes, and the layout with them, so a
    /// statement holding text beyond ASCII fits as it does only when its bytes do.
    func settledText(last: Int, respaced: Bool) -> (Doc, width: Int, length: Int) {
        var bytes: [UInt8] = []
        var width = 0
        guard settledBytes(last: last, respaced: respaced, into: &bytes) else {
            let start = Int(stream.tokens[cursor].offset), end = stream.end(last)
            for byte in stream.source[start..<end] where byte & 0xC0 != 0x80 { width += 1 }
            return (.slice(start: Int32(start), length: Int32(end - start), width: width), width, end - start)
        }
        for byte in bytes where byte & 0xC0 != 0x80 { width += 1 }
        return (.text(String(decoding: bytes, as: UTF8.self), width: width), width, bytes.count)
    }

    /// Writes the text of the tokens from the cursor to `last` as the fast path writes them
    /// into `bytes` (`respacedBytes`, `requotedBytes`); false when that text is their source,
    /// as it is, and nothing is written.
    func settledBytes(last: Int, respaced: Bool, into bytes: inout [UInt8]) -> Bool {
        if respaced {
            respacedBytes(last: last, into: &bytes)
            return true
        }
        return requotedBytes(last: last, into: &bytes)
    }

    /// ` condition keyword` after `if`, `elseif` or `while` (the keyword just consumed) as one
    /// text and the keyword, when the condition is settled as a statement would be, is not in
    /// parentheses (formatting drops them) and the header fits on its line; else nil, nothing
    /// consumed. `prefix`: the columns of the header before the condition's space (the keyword's
    /// when nil; a `for` header's names and `in`).
    mutating func settledCondition(closing: LuaTokenKind, prefix: Int? = nil) -> Doc? {
        guard settledAllowed, !kind.is(.leftParen), !stream.hasComment(before: cursor),
            let (last, respaced, extra) = settledEnd(closing: closing), !stream.hasComment(before: last + 1)
        else { return nil }
        let (text, width, _) = settledText(last: last, respaced: respaced)
        let header =
            (prefix ?? Int(stream.tokens[cursor - 1].length)) + 1 + width + 1 + closing.display.utf8.count + extra
        guard (depth + functionIndent) * options.indentColumns + header <= options.columnWidth else { return nil }
        cursor = last + 1
        return .concat([.space, text, .space, token(closing)])
    }

    /// Whether a `;` after token `last` stays (before a `(`), and so is measured on the line.
    func keepsSemicolon(after last: Int) -> Bool {
        stream.tokens[last + 1].kind.is(.semicolon) && kind(at: last + 2 - cursor).is(.leftParen)
    }

    /// Whether a block comment lies between token `last` and the next (one after the statement
    /// on its line is measured with it), read in place: each comment starts with `--`, a block
    /// comment's with `--[` and a long bracket, a line comment's ends at its line's end.
    func hasLongTrailingComment(after last: Int) -> Bool {
        guard stream.hasComment(before: last + 1) else { return false }
        let source = stream.source
        var position = stream.end(last)
        let stop = Int(stream.tokens[last + 1].offset)
        while position < stop {
            guard source[position] == 45 else {
                position += 1
                continue
            }
            var bracket = position + 2
            if bracket < stop && source[bracket] == 91 {
                bracket += 1
                while bracket < stop && source[bracket] == 61 { bracket += 1 }
                if bracket < stop && source[bracket] == 91 { return true }
            }
            while position < stop && source[position] != 10 && source[position] != 13 { position += 1 }
        }
        return false
    }

    /// Whether the options allow the fast path: no option changes a flat statement's tokens or
    /// line beyond what `settledEnd` checks.
    var settledAllowed: Bool {
        options.settledStatements && range == nil && !pendingBreak
            && options.callParentheses == .always && options.spaceAfterFunctionNames == .never
            && options.collapseSimpleStatement == .never
    }

    /// The last token of the statement at the cursor when its tokens, flat, are written as
    /// formatting writes them, and whether its text must be made from its tokens: the spaces
    /// between them differ from formatting's, a string gets parentheses or other quotes than
    /// its own (then `respacedBytes` gives it; in a statement holding a table, whose width
    /// StyLua reads in the source, only when the widths stay); nil when not or unsure.
    /// With `closing` (`then`, `do`): the last token of the condition at the cursor, which that
    /// keyword ends; with `.comma`, of the table field at the cursor, which `,`, `;` or `}` ends.
    func settledEnd(closing: LuaTokenKind? = nil) -> (last: Int, respaced: Bool, extra: Int)? {
        let tokens = stream.tokens
        var index = cursor
        var walk = SettledWalk(first: tokens[index].kind, length: Int(tokens[index].length))
        guard Self.settledToken(walk.previous), !walk.previous.is(.string) || walk.string(index, self) else {
            return nil
        }
        if closing?.is(.comma) == true {
            // A field may open with a bracket (`[key] =`, a table, parentheses); a statement
            // that does is not taken (its closing bracket ends the walk).
            walk.openField(index)
        }
        while true {
            index += 1
            let kind = tokens[index].kind
            if walk.nesting == 0, let closing {
                if kind.is(closing) || (closing.is(.comma) && (kind.is(.semicolon) || kind.is(.rightBrace))) {
                    return Self.endsValue(walk.previous) ? walk.end(index - 1, self) : nil
                }
            } else if walk.nesting == 0,
                let ends = Self.statementEnds(after: walk.previous, first: index - 1 == cursor, next: kind)
            {
                return ends ? walk.end(index - 1, self) : nil
            }
            guard Self.settledToken(kind),
                let (gap, unary) = Self.gap(walk.previous, kind, previousUnary: walk.previousUnary),
                spacedAsSettled(before: index, gap: gap, &walk.respaced)
            else { return nil }
            walk.formatted += (gap == 1 ? 1 : gap == Self.parenthesized ? 2 : 0) + Int(tokens[index].length)
            if walk.localNames && (kind.is(.less) || kind.is(.assign)) {
                guard kind.is(.assign) else { return nil }
                walk.localNames = false
            }
            guard walk.step(kind, index, self) else { return nil }
            walk.previous = kind
            walk.previousUnary = unary
        }
    }

    /// Whether the spacing before token `index` is what `gap` gives, or only spacing
    /// (`respaced` then set): a comment keeps the full path, and so does a line break before a
    /// binary operator (a run of one operator measures differently when its operator starts a
    /// line, `operatorStartedLine`) or after a `{` (a table broken in the source stays so).
    @inline(__always)
    func spacedAsSettled(before index: Int, gap: Int, _ respaced: inout Bool) -> Bool {
        let source = stream.source
        let from = stream.end(index - 1), to = Int(stream.tokens[index].offset)
        guard gap == Self.parenthesized || to - from != gap || (gap == 1 && source[from] != 32) else { return true }
        for position in from..<to where source[position] != 32 && source[position] != 9 {
            guard source[position] == 10 || source[position] == 13, !Self.isBinary(stream.tokens[index].kind),
                !stream.tokens[index - 1].kind.is(.leftBrace)
            else { return false }
        }
        respaced = true
        return true
    }

    /// The statement's tokens up to token `last` with formatting's spaces between them (one or
    /// none, as `gap` says) and its strings' quotes set.
    func respacedBytes(last: Int, into bytes: inout [UInt8]) {
        let source = stream.source
        let quote = settledQuote
        bytes.reserveCapacity(stream.end(last) - Int(stream.tokens[cursor].offset))
        var previousUnary = Self.isUnary(stream.tokens[cursor].kind)
        for index in cursor...last {
            let token = stream.tokens[index]
            var parenthesized = false
            if index > cursor,
                let (gap, unary) = Self.gap(stream.tokens[index - 1].kind, token.kind, previousUnary: previousUnary)
            {
                if gap == 1 { bytes.append(32) }
                parenthesized = gap == Self.parenthesized
                previousUnary = unary
            }
            if parenthesized { bytes.append(40) }
            let start = Int(token.offset)
            if token.kind.is(.string) && quoteInside(index) {
                bytes.append(contentsOf: StringQuotes.requote(stream.text(index), style: options.quoteStyle).utf8)
            } else {
                bytes.append(contentsOf: source[start..<(start + Int(token.length))])
                if token.kind.is(.string) {
                    bytes[bytes.count - Int(token.length)] = quote
                    bytes[bytes.count - 1] = quote
                }
            }
            if parenthesized { bytes.append(41) }
        }
    }

    /// Writes the source of the tokens from the cursor to `last` into `bytes` with each string
    /// in the quote formatting gives it (`settledString`: only its quotes change); false when
    /// no quote changes, and nothing is written.
    func requotedBytes(last: Int, into bytes: inout [UInt8]) -> Bool {
        let source = stream.source
        let quote = settledQuote
        var index = cursor
        while index <= last {
            let token = stream.tokens[index]
            if token.kind.is(.string) && source[Int(token.offset)] != quote { break }
            index += 1
        }
        guard index <= last else { return false }
        let start = Int(stream.tokens[cursor].offset), end = stream.end(last)
        bytes.append(contentsOf: source[start..<end])
        while index <= last {
            let token = stream.tokens[index]
            if token.kind.is(.string) {
                bytes[Int(token.offset) - start] = quote
                bytes[Int(token.offset + token.length) - 1 - start] = quote
            }
            index += 1
        }
        return true
    }

    /// The quote a string without quotes in it gets (StringQuotes' rule).
    var settledQuote: UInt8 {
        options.quoteStyle == .autoPreferSingle || options.quoteStyle == .forceSingle ? 39 : 34
    }

    /// Whether string token `index` is a short string. Without a quote of either kind in it,
    /// formatting writes it as it is but for its quotes, which become `settledQuote`, so its
    /// width stays; with one, `StringQuotes` gives its text, which `respacedBytes` writes
    /// (`rebuilt`), and which `respaced` says when its width changes.
    func settledString(_ index: Int, _ respaced: inout Bool, _ rebuilt: inout Bool) -> Bool {
        let token = stream.tokens[index]
        let first = stream.source[Int(token.offset)]
        guard token.length >= 2, first == 34 || first == 39 else { return false }
        guard quoteInside(index) else { return true }
        rebuilt = true
        if StringQuotes.requote(stream.text(index), style: options.quoteStyle).utf8.count != Int(token.length) {
            respaced = true
        }
        return true
    }

    /// Whether short string token `index` holds a quote of either kind between its own.
    func quoteInside(_ index: Int) -> Bool {
        let token = stream.tokens[index]
        let start = Int(token.offset), end = start + Int(token.length)
        return stream.source.withUnsafeBufferPointer { source in
            for position in (start + 1)..<(end - 1) where source[position] == 34 || source[position] == 39 {
                return true
            }
            return false
        }
    }

    /// Tokens a settled statement may hold (not a function, a label, a long string's kin: the
    /// string check looks at the quotes).
    static func settledToken(_ kind: LuaTokenKind) -> Bool {
        switch kind {
        case .kwFunction, .doubleColon, .eof, .kwIf, .kwThen, .kwElse, .kwElseif, .kwEnd, .kwDo, .kwWhile, .kwFor,
            .kwIn, .kwRepeat, .kwUntil:
            return false
        default: return true
        }
    }

    /// Whether token kind `kind` ends a value (an operator after it is binary; a name after it
    /// starts the next statement).
    static func endsValue(_ kind: LuaTokenKind) -> Bool {
        switch kind {
        case .name, .number, .string, .kwNil, .kwTrue, .kwFalse, .dots, .rightParen, .rightBracket, .rightBrace:
            return true
        default: return false
        }
    }

    /// At nesting 0, after `previous`, with `next` coming: true when the statement ends before
    /// `next` (Lua's grammar: after a value, a name or a keyword starts the next statement),
    /// false when the fast path must not be taken, nil when the statement goes on.
    static func statementEnds(after previous: LuaTokenKind, first: Bool, next: LuaTokenKind) -> Bool? {
        let blockEnd = next.is(.eof) || next.is(.kwEnd) || next.is(.kwElse) || next.is(.kwElseif) || next.is(.kwUntil)
        let startsNext =
            blockEnd || next.is(.semicolon) || next.is(.name) || next.is(.kwLocal) || next.is(.kwReturn)
            || next.is(.kwIf)
            || next.is(.kwWhile) || next.is(.kwFor) || next.is(.kwDo) || next.is(.kwFunction) || next.is(.kwGoto)
            || next.is(.kwBreak) || next.is(.kwRepeat) || next.is(.doubleColon)
        if previous.is(.kwReturn) && first { return blockEnd || next.is(.semicolon) ? true : nil }
        if previous.is(.kwBreak) { return startsNext ? true : false }
        guard endsValue(previous) else { return nil }
        return startsNext ? true : nil
    }

    /// The spaces StyLua puts between `previous` and `next` in a flat statement, and whether
    /// `next` is a unary operator; nil when the pair is not one the fast path knows (a call
    /// without parentheses, a trailing separator, `- -x`, `1 .x`).
    static func gap(_ previous: LuaTokenKind, _ next: LuaTokenKind, previousUnary: Bool) -> (Int, Bool)? {
        let valueBefore = endsValue(previous)
        let unary = !valueBefore && isUnary(next)
        guard let gap = spaces(previous, next, valueBefore: valueBefore, previousUnary: previousUnary) else {
            return nil
        }
        return (gap, unary)
    }

    /// Whether `kind` is an operator when it comes where a value starts (`-`, `~`, `#`, `not`).
    static func isUnary(_ kind: LuaTokenKind) -> Bool {
        kind.is(.minus) || kind.is(.tilde) || kind.is(.hash) || kind.is(.kwNot)
    }

    static func spaces(_ previous: LuaTokenKind, _ next: LuaTokenKind, valueBefore: Bool, previousUnary: Bool) -> Int? {
        if next.is(.rightBrace) {
            return previous.is(.comma) || previous.is(.semicolon) ? nil : (previous.is(.leftBrace) ? 0 : 1)
        }
        if next.is(.comma) || next.is(.rightParen) || next.is(.rightBracket) { return 0 }
        if previous.is(.comma) || previous.is(.leftBrace) { return 1 }
        if previous.is(.leftParen) || previous.is(.leftBracket) { return 0 }
        if previous.is(.number) && (next.is(.dot) || next.is(.colon)) { return nil }
        if next.is(.dot) || next.is(.colon) || previous.is(.dot) || previous.is(.colon) { return 0 }
        if valueBefore {
            switch next {
            case .leftParen, .leftBracket: return 0
            case .leftBrace: return nil  // a call without parentheses gets them; a table's width is the source's
            case .string: return parenthesized
            case .assign: return 1
            default: return isBinary(next) ? 1 : nil
            }
        }
        if previousUnary {
            if previous.is(.kwNot) { return 1 }
            return next.is(.minus) || next.is(.tilde) ? nil : 0
        }
        if previous.is(.assign) || previous.is(.kwLocal) || previous.is(.kwReturn) || previous.is(.kwGoto)
            || isBinary(previous)
        {
            return 1
        }
        return nil
    }

    /// The gap before a string argument written without parentheses: formatting adds them
    /// (`call_parentheses` Always), with no space before.
    static let parenthesized = 2

    /// The binary operators, by token kind.
    static func isBinary(_ kind: LuaTokenKind) -> Bool {
        switch kind {
        case .plus, .minus, .star, .slash, .doubleSlash, .percent, .caret, .ampersand, .tilde, .pipe, .shiftLeft,
            .shiftRight, .equal, .notEqual, .lessEqual, .greaterEqual, .less, .greater, .concat, .kwAnd, .kwOr:
            return true
        default: return false
        }
    }
}
