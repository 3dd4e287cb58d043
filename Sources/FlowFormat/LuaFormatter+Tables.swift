import LuaSyntax

extension LuaFormatter {
    mutating func table(_ id: SyntaxTree.NodeID) -> Doc { table(id, reportingBroken: ()).doc }

    /// `{ a, b = c }` on one line, or a field a line with a trailing comma. As StyLua, a table
    /// whose `{` ends its source line stays broken, and so does one holding a comment or a
    /// function with a body.
    mutating func table(_ id: SyntaxTree.NodeID, reportingBroken: Void) -> (doc: Doc, broken: Bool) {
        let node = tree[id]
        let fields = tree.list(node.a, node.b)
        let commentsBefore = commentCount
        let openIndex = cursor
        let open = token(.leftBrace)
        let brokenInSource = !fields.isEmpty && startsLine(after: openIndex)
        var docs: [Doc] = []
        docs.reserveCapacity(fields.count)
        var holdsFunction = false
        for (position, field) in fields.enumerated() {
            // A blank line between fields of a broken table is kept, as between statements, and
            // so is one after its `{` (StyLua keeps the first field's leading blank line).
            let leading = leadingComments(of: cursor, atStatement: true, keepBlank: brokenInSource)
            leadingDoneFor = cursor
            let value = self.field(field, holdsFunction: &holdsFunction)
            var doc = leading.isEmpty ? value : Doc.concat(leading + [value])
            if kind.is(.comma) || kind.is(.semicolon) {
                if position + 1 < fields.count {
                    doc = .concat([doc, token(kind, text: ",")])
                } else {
                    doc = .concat([doc, dropToken(kind)])
                }
            }
            docs.append(doc)
        }
        let closeComments = blockEndComments(hasStatements: !fields.isEmpty)
        // Comments inside are the table's: a call around it is not broken for them.
        let broken = brokenInSource || holdsFunction || commentCount != commentsBefore
        commentCount = commentsBefore
        let closeIndex = cursor
        let close = token(.rightBrace)
        if fields.isEmpty {
            if closeComments.isEmpty { return (.concat([open, close]), broken) }
            return (.group(.concat([open, .indent(.concat([.hardLine] + closeComments)), .hardLine, close])), true)
        }
        var inner: [Doc] = [.hardLine, .join(docs, .hardLine), .text(",")]
        if !closeComments.isEmpty { inner.append(contentsOf: [.hardLine] + closeComments) }
        let brokenDoc = Doc.concat([open, .indent(.concat(inner)), .hardLine, close])
        let flatDoc = Doc.concat([open, .space, .join(docs, .space), .space, close])
        let width = sourceWidth(open: openIndex, close: closeIndex)
        let table = Doc.table(
            flat: flatDoc, broken: brokenDoc, sourceWidth: width, forced: broken, flatBreaks: flatDoc.canBreak)
        return (table, broken)
    }

    /// The table's width in the source, counting the spaces the flat layout adds inside the
    /// braces: StyLua's guess of its flat width, which keeps the choice stable when formatted again.
    func sourceWidth(open: Int, close: Int) -> Int {
        let start = stream.end(open), stop = Int(stream.tokens[close].offset)
        var width = stop - start + 2
        let source = stream.source
        if start < stop, source[start] == 32 || source[start] == 9 || source[start] == 10 {} else { width += 1 }
        if stop > start, source[stop - 1] == 32 || source[stop - 1] == 9 || source[stop - 1] == 10 {
        } else {
            width += 1
        }
        return width
    }

    /// Whether a line break follows token `index` before the next token.
    func startsLine(after index: Int) -> Bool {
        let start = stream.end(index), stop = Int(stream.tokens[index + 1].offset)
        var position = start
        while position < stop {
            let byte = stream.source[position]
            if byte == 10 || byte == 13 { return true }
            if byte != 32 && byte != 9 { return false }
            position += 1
        }
        return false
    }

    mutating func field(_ id: SyntaxTree.NodeID, holdsFunction: inout Bool) -> Doc {
        let node = tree[id]
        let value = node.kind == .positionalField ? node.a : node.b
        if tree[value].kind == .function && !tree.statements(of: tree[value].c).isEmpty { holdsFunction = true }
        switch node.kind {
        case .positionalField:
            return expression(value)
        default:
            var parts: [Doc] = []
            if kind.is(.leftBracket) {
                parts.append(token(.leftBracket))
                let padded = stream.text(cursor).hasPrefix("[")
                if padded { parts.append(.space) }
                parts.append(expression(node.a))
                if padded { parts.append(.space) }
                parts.append(token(.rightBracket))
            } else {
                parts.append(token(.name))
            }
            parts.append(contentsOf: [.space, token(.assign), .space, expression(value)])
            return .concat(parts)
        }
    }

    /// `(params)` and the body of a function, `end` on a line of its own; an empty body
    /// without comments stays on the line: `function() end`.
    /// `emitting` (a function statement's, or a function on a statement's line): `head` (what
    /// comes before the signature on its line), the signature and the block printed when it
    /// holds statements, `end` returned.
    mutating func functionBody(
        _ id: SyntaxTree.NodeID, definition: Bool, emitting: Bool = false, head: Doc? = nil
    ) -> Doc {
        let node = tree[id]
        let emitting = emitting && !tree.statements(of: node.c).isEmpty
        if let head, !emitting { return .concat([head, functionBody(id, definition: definition)]) }
        let signature: Doc
        var signatureComment = false
        if definition, let prefix = headerWidth(from: statementStart), let settled = settledParameters(prefix: prefix) {
            signature = settled
        } else {
            (signature, signatureComment) = parameterList()
        }
        return functionBody(id, signature: (signature, signatureComment), emitting: emitting, head: head)
    }

    /// The body of function `id` after its `signature` (consumed, and whether a comment follows
    /// its `)`), as `functionBody` lays it out.
    mutating func functionBody(
        _ id: SyntaxTree.NodeID, signature: (Doc, comment: Bool), emitting: Bool, head: Doc? = nil
    ) -> Doc {
        let node = tree[id]
        let (signature, signatureComment) = signature
        let commentsBefore = commentCount
        if emitting {
            printer!.append(head.map { .concat([$0, signature]) } ?? signature, indent: depth)
            emitBlock(node.c)
            commentCount = commentsBefore
            printer!.append(.hardLine, indent: depth)
            return token(.kwEnd)
        }
        let first = cursor
        let (inner, last) = collapsedBlock(node.c)
        // Comments inside a body are the body's: a call around it is not broken for them.
        let bodyHasComments = commentCount != commentsBefore || signatureComment
        commentCount = commentsBefore
        let end = token(.kwEnd)
        if tree.statements(of: node.c).isEmpty && !bodyHasComments {
            return .concat([signature, .space, end])
        }
        if inner.isEmptyConcat {
            return .concat([signature, .hardLine, end])
        }
        if collapsesFunctions && !signatureComment && isSimpleBlock(node.c, first: first, last: last) {
            return collapsible(signature, body: inner, end: end)
        }
        return .concat([signature, .indent(.concat([.hardLine, inner])), .hardLine, end])
    }

    /// A function's parameters in their parentheses, one a line when they do not fit; and
    /// whether a comment follows the `)`.
    mutating func parameterList() -> (Doc, comment: Bool) {
        var parameters: [Doc] = []
        let open = token(.leftParen)
        while !kind.is(.rightParen) {
            var doc = token(kind)
            if kind.is(.comma) { doc = .concat([doc, token(.comma)]) }
            parameters.append(doc)
        }
        // A comment after the parameters is the body's: the call around it is not expanded for it.
        let commentsBeforeClose = commentCount
        let close = token(.rightParen)
        let signatureComment = commentCount != commentsBeforeClose
        commentCount = commentsBeforeClose
        if parameters.isEmpty { return (.concat([definitionSpace, open, close]), signatureComment) }
        let list = Doc.indent(.concat([.softLine, .join(parameters, .line)]))
        return (.group(.concat([definitionSpace, open, list, .softLine, close])), signatureComment)
    }
}
