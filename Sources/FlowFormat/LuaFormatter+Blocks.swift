import LuaSyntax

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension LuaFormatter {
    /// A block's statements, one a line, at most one blank line kept between two, then the
    /// comments that end it (before its `end`, `else`, `until` or the end of the file).
    /// Statements under `-- stylua: ignore`, between `-- stylua: ignore start` and `end`, or
    /// outside the range asked for stay as they are in the source. `emitting`: printed as they
    /// are formatted (LuaFormatter+Emission), the layout returned empty.
    mutating func block(_ id: SyntaxTree.NodeID, emitting: Bool = false) -> Doc {
        let statements = tree.statements(of: id)
        let offset = statements.startIndex  // a slice of the tree's lists
        var parts: [Doc] = []
        if !emitting { parts.reserveCapacity(statements.count * 2 + 4) }
        let isRoot = id == tree.root
        let enclosingStart = statementStart
        defer { statementStart = enclosingStart }
        var position = 0
        while position < statements.count {
            if position > 0 { put(.hardLine, &parts, emitting) }
            pendingBreak = false
            if kind.is(.semicolon) { put(dropEmptyStatements(), &parts, emitting) }
            let markers = ignoreMarkers(before: cursor)
            put(leadingComments(of: cursor, atStatement: true, keepBlank: position > 0), &parts, emitting)
            leadingDoneFor = cursor
            let first = cursor
            statementStart = first
            let hasNext = position + 1 < statements.count
            if markers.contains("ignore start") {
                _ = statement(statements[offset + position])
                _ = semicolons(beforeParenthesis: false)
                while position + 1 < statements.count && !ignoreMarkers(before: cursor).contains("ignore end") {
                    position += 1
                    _ = statement(statements[offset + position])
                    _ = semicolons(beforeParenthesis: false)
                }
                put(verbatim(from: first), &parts, emitting)
            } else if emitting && markers.isEmpty {
                emitStatement(statements[offset + position], hasNext: hasNext)
            } else {
                let doc =
                    (markers.isEmpty ? settledStatement(statements[offset + position]) : nil)
                    ?? statement(statements[offset + position])
                let semicolon = semicolons(beforeParenthesis: hasNext)
                if markers.contains("ignore") || (isRoot && !inRange(from: first)) {
                    put(verbatim(from: first), &parts, emitting)
                } else {
                    putStatement(doc, semicolon: semicolon, &parts, emitting)
                }
            }
            position += 1
        }
        if kind.is(.semicolon) { put(dropEmptyStatements(), &parts, emitting) }
        let closing = blockEndComments(hasStatements: !statements.isEmpty)
        if !closing.isEmpty {
            if !statements.isEmpty { put(.hardLine, &parts, emitting) }
            put(closing, &parts, emitting)
        }
        return .concat(parts)
    }

    /// `;` standing alone (before a block's first statement, or after another `;`): dropped.
    mutating func dropEmptyStatements() -> Doc {
        var parts: [Doc] = []
        while kind.is(.semicolon) { parts.append(dropToken(.semicolon)) }
        return .concat(parts)
    }

    /// The source from token `first` to the last one consumed, as it is, and the comment
    /// after it on its line.
    mutating func verbatim(from first: Int) -> Doc {
        let last = cursor - 1
        let start = Int(stream.tokens[first].offset), end = stream.end(last)
        var parts: [Doc] = [.text(String(decoding: stream.source[start..<end], as: UTF8.self))]
        pendingBreak = false
        appendTrailingComments(of: last, to: &parts)
        return .concat(parts)
    }

    /// Whether the tokens from `first` to the last one consumed meet the range asked for.
    func inRange(from first: Int) -> Bool {
        guard let range else { return true }
        let start = Int(stream.tokens[first].offset), end = stream.end(cursor - 1)
        return start < range.upperBound && end > range.lowerBound
    }

    /// The StyLua markers (`ignore`, `ignore start`, `ignore end`) in the comments on lines
    /// of their own before token `index`.
    func ignoreMarkers(before index: Int) -> [String] {
        guard stream.hasComment(before: index), mentionsStyLua(before: index) else { return [] }
        var markers: [String] = []
        for case .comment(let text, false) in stream.trivia(before: index) {
            let body = text.dropFirst(2).trimmingPrefix(while: { $0 == " " || $0 == "\t" })
            if body.hasPrefix("stylua:") {
                markers.append(String(body.dropFirst(7).trimmingPrefix(while: { $0 == " " || $0 == "\t" })))
            }
        }
        return markers
    }

    /// Whether `stylua:` is written before token `index` (where a marker's comment would be):
    /// most comments are not markers, and this reads them without splitting them out.
    func mentionsStyLua(before index: Int) -> Bool {
        let start = index == 0 ? stream.preludeEnd : stream.end(index - 1)
        let stop = Int(stream.tokens[index].offset)
        guard stop - start >= 7 else { return false }
        return stream.source.withUnsafeBytes { source in
            Self.styLuaMarker.withUnsafeBytes { marker in
                // Each `s` found by memchr, then the rest compared.
                let base = source.baseAddress!, last = stop - marker.count
                var position = start
                while position <= last, let found = memchr(base + position, 115, last + 1 - position) {
                    if memcmp(found, marker.baseAddress!, marker.count) == 0 { return true }
                    position = base.distance(to: UnsafeRawPointer(found)) + 1
                }
                return false
            }
        }
    }

    static let styLuaMarker = Array("stylua:".utf8)

    /// The `;` after a statement: dropped, unless the next statement starts with `(` (where
    /// without it the two would read as one call).
    mutating func semicolons(beforeParenthesis hasNext: Bool) -> Doc {
        var parts: [Doc] = []
        while kind.is(.semicolon) {
            let keep = hasNext && kind(at: 1).is(.leftParen)
            parts.append(keep ? token(.semicolon) : dropToken(.semicolon))
        }
        return .concat(parts)
    }

    /// The comments on lines of their own before the token that ends a block, at the block's
    /// indentation, the last hard line left to the caller.
    mutating func blockEndComments(hasStatements: Bool) -> [Doc] {
        pendingBreak = false
        if (kind.is(.kwElseif) || kind.is(.kwElse)) && !commentsIndentedPast(cursor) {
            // StyLua: comments before `elseif` or `else` not indented past it in the source stay
            // at its indentation (the keyword's token carries them).
            return []
        }
        if kind.is(.eof) && !hasStatements && stream.hasComment(before: cursor),
            case .newlines = stream.trivia(before: cursor).first
        {
            // A file of comments only keeps the line break it starts with.
            let comments = leadingComments(of: cursor, atStatement: true)
            leadingDoneFor = cursor
            return [.emptyLine] + comments.dropLast()
        }
        var parts = leadingComments(of: cursor, atStatement: true, keepBlank: hasStatements)
        leadingDoneFor = cursor
        if case .hardLine = parts.last { parts.removeLast() }
        return parts
    }

    /// The indentation before the byte at `offset` on its line, in levels (StyLua's reading:
    /// tabs when there are any, else spaces over the indent width).
    func sourceIndentation(of offset: Int) -> Int {
        var spaces = 0, tabs = 0, position = offset
        while position > 0 {
            let byte = stream.source[position - 1]
            if byte == 32 { spaces += 1 } else if byte == 9 { tabs += 1 } else { break }
            position -= 1
        }
        return tabs > 0 ? tabs : spaces / max(options.indentWidth, 1)
    }

    /// `keyword`, the block indented on the lines after it, and the closing token on a line
    /// of its own; an empty block still puts the closing token on the next line.
    mutating func body(_ block: SyntaxTree.NodeID) -> Doc {
        let (inner, _) = collapsedBlock(block)
        if inner.isEmptyConcat { return .hardLine }
        return bodyLayout(inner)
    }

    /// A block's statements, and the index of the token that closes it.
    mutating func collapsedBlock(_ block: SyntaxTree.NodeID) -> (Doc, Int) {
        depth += 1
        let inner = self.block(block)
        depth -= 1
        return (inner, cursor)
    }

    /// The block indented on the lines after its keyword, the closing token on a line of its own.
    func bodyLayout(_ inner: Doc) -> Doc {
        .concat([.indent(.concat([.hardLine, inner])), .hardLine])
    }

    /// Whether a comment before token `index` is indented past the token in the source.
    func commentsIndentedPast(_ index: Int) -> Bool {
        let level = sourceIndentation(of: Int(stream.tokens[index].offset))
        let start = index == 0 ? stream.preludeEnd : stream.end(index - 1)
        let stop = Int(stream.tokens[index].offset)
        var atLineStart = false
        for position in start..<stop {
            let byte = stream.source[position]
            if byte == 10 || byte == 13 {
                atLineStart = true
            } else if byte != 32 && byte != 9 {
                if atLineStart && sourceIndentation(of: position) > level { return true }
                atLineStart = false
            }
        }
        return false
    }

    /// The layout of statement `id`. `emitting`: a compound statement prints itself as it goes
    /// (LuaFormatter+Emission) but for its last part, which it returns, to be printed with
    /// what follows it on its line; others are only laid out.
    mutating func statement(_ id: SyntaxTree.NodeID, emitting: Bool = false) -> Doc {
        let node = tree[id]
        var parts: [Doc] = []
        switch node.kind {
        case .local: return localStatement(node)
        case .assignment: return assignment(node)
        case .callStatement: return expression(node.a)
        case .doBlock:
            put(token(.kwDo), &parts, emitting)
            putBody(node.a, &parts, emitting)
        case .whileLoop:
            put(token(.kwWhile), &parts, emitting)
            put(headerCondition(node.a, closing: .kwDo), &parts, emitting)
            putBody(node.b, &parts, emitting)
        case .repeatLoop: return repeatLoop(node, emitting: emitting)
        case .ifStatement: return ifStatement(node, emitting: emitting)
        case .numericFor: return numericFor(node, emitting: emitting)
        case .genericFor: return genericFor(node, emitting: emitting)
        case .functionStatement: return functionStatement(node, emitting: emitting)
        case .localFunction:
            let local = token(.kwLocal)
            let function = token(.kwFunction)
            let name = token(.name)
            let head = Doc.concat([local, .space, function, .space, name])
            if emitting { return functionBody(node.b, definition: true, emitting: true, head: head) }
            return .concat([head, functionBody(node.b, definition: true)])
        case .returnStatement: return returnStatement(node)
        case .breakStatement: return token(.kwBreak)
        case .gotoStatement:
            let keyword = token(.kwGoto)
            return .concat([keyword, .space, token(.name)])
        case .label:
            return .concat([token(.doubleColon), token(.name), token(.doubleColon)])
        default:
            preconditionFailure("not a statement: \(node.kind)")
        }
        return ending(token(.kwEnd), parts)
    }

    /// A compound statement's layout, `parts` and then `last`; when emitting (`parts` then
    /// empty: printed), `last` alone.
    func ending(_ last: Doc, _ parts: [Doc]) -> Doc {
        parts.isEmpty ? last : .concat(parts + [last])
    }

    /// ` condition keyword` after `if`, `elseif` or `while`: on one line when it fits, else
    /// the condition on lines of its own between the two keywords.
    mutating func headerCondition(_ condition: SyntaxTree.NodeID, closing: LuaTokenKind) -> Doc {
        if let settled = settledCondition(closing: closing) { return settled }
        let (flat, hung) = self.condition(condition)
        let keyword = token(closing)
        return .group(.concat([.indent(.concat([.line, .ifBreak(broken: hung, flat: flat)])), .line, keyword]))
    }

    /// A condition without the parentheses around it (StyLua drops them), flat and hung: when
    /// it does not fit, its operators all start lines.
    mutating func condition(_ id: SyntaxTree.NodeID) -> (flat: Doc, hung: Doc) {
        var inner = id
        var dropped: [Doc] = []
        while tree[inner].kind == .paren {
            dropped.append(dropToken(.leftParen))
            inner = tree[inner].a
        }
        let flat: Doc, hung: Doc
        if tree[inner].kind == .binary {
            // On a line of its own the condition stays flat when it fits; a run of three operands
            // or more hangs at every operator there (StyLua hangs such a run whenever it hangs).
            let run = binaryRun(inner, indent: 0)
            flat = run.doc(indent: 0)
            hung = run.hanging(indent: 0)
        } else {
            flat = expression(inner)
            hung = flat
        }
        var closing: [Doc] = []
        for _ in dropped { closing.append(dropToken(.rightParen)) }
        if dropped.isEmpty { return (flat, hung) }
        return (.concat(dropped + [flat] + closing), .concat(dropped + [hung] + closing))
    }

    mutating func ifStatement(_ node: SyntaxNode, emitting: Bool) -> Doc {
        var parts: [Doc] = []
        let pairs = tree.list(node.a, node.b * 2)
        if collapsesConditionals && node.b == 1 && node.c < 0 {
            let keyword = token(.kwIf)
            let commentsBefore = breakCount
            let condition = headerCondition(pairs[pairs.startIndex], closing: .kwThen)
            let first = cursor
            let block = pairs[pairs.startIndex + 1]
            let (statements, last) = collapsedBlock(block)
            let end = token(.kwEnd)
            if breakCount == commentsBefore && isSimpleBlock(block, first: first, last: last) {
                return collapsible(.concat([keyword, condition]), body: statements, end: end)
            }
            return .concat([keyword, condition, statements.isEmptyConcat ? .hardLine : bodyLayout(statements), end])
        }
        if !emitting { parts.reserveCapacity(pairs.count / 2 * 3 + 3) }
        for pair in stride(from: 0, to: pairs.count, by: 2) {
            put(token(pair == 0 ? .kwIf : .kwElseif), &parts, emitting)
            put(headerCondition(pairs[pairs.startIndex + pair], closing: .kwThen), &parts, emitting)
            putBody(pairs[pairs.startIndex + pair + 1], &parts, emitting)
        }
        if node.c >= 0 {
            put(token(.kwElse), &parts, emitting)
            putBody(node.c, &parts, emitting)
        }
        return ending(token(.kwEnd), parts)
    }

    mutating func functionStatement(_ node: SyntaxNode, emitting: Bool) -> Doc {
        var parts = [token(.kwFunction), .space, token(.name)]
        while kind.is(.dot) || kind.is(.colon) {
            parts.append(token(kind))
            parts.append(token(.name))
        }
        if emitting { return functionBody(node.b, definition: true, emitting: true, head: .concat(parts)) }
        parts.append(functionBody(node.b, definition: true))
        return .concat(parts)
    }

    mutating func returnStatement(_ node: SyntaxNode) -> Doc {
        let keyword = token(.kwReturn)
        let values = Array(tree.list(node.a, node.b))
        var parts = [keyword]
        if !values.isEmpty {
            parts.append(.space)
            parts.append(returnValues(values))
        }
        if kind.is(.semicolon) { parts.append(dropToken(.semicolon)) }
        return .concat(parts)
    }
}
