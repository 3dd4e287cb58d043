import LuaSyntax

/// Emission (LuaFormatter+Emission) of tables that stay broken: a table whose `{` ends its
/// source line is always laid out a field a line (`table`), so when it is a statement's lone
/// value (`local t = {`, `M.t = {`, `return {`) its fields are printed one after another, each
/// as soon as it is formatted, and so are those of the tables so broken inside it that are
/// fields' values. A field is laid out as `table` lays it out and printed with the `,` after
/// it, which its line's measure counts.
extension LuaFormatter {
    /// A statement whose lone value is such a table after `local name =`, a target of names
    /// and dots, or `return`, when ` {` fits after the `=` (formatting keeps the table on the
    /// statement's line then): prints all but the `}`, which it returns (with a dropped `;` after
    /// a `return`); nil when the statement is not one of these, nothing consumed.
    mutating func emitTableValue(_ id: SyntaxTree.NodeID) -> Doc? {
        let node = tree[id]
        guard let value = loneValue(node), tree[value].kind == .table, tree[value].b > 0 else { return nil }
        let isReturn = node.kind == .returnStatement
        var brace = cursor + 1
        if !isReturn {
            // `local name` or names and dots, `=`, then ` {` within the column width.
            var width = 0
            while !stream.tokens[brace - 1].kind.is(.assign) {
                let token = stream.tokens[brace - 1]
                guard token.kind.is(.name) || token.kind.is(.dot) || token.kind.is(.kwLocal) else { return nil }
                width += Int(token.length) + (token.kind.is(.kwLocal) ? 1 : 0)
                brace += 1
            }
            guard depth * options.indentColumns + width + 4 <= options.columnWidth else { return nil }
        }
        guard stream.tokens[brace].kind.is(.leftBrace), startsLine(after: brace) else { return nil }
        for index in (cursor + 1)...brace where stream.hasComment(before: index) { return nil }
        var head: [Doc] = []
        while cursor < brace {
            // A space after `local` and `return`, around `=`; none around `.`.
            if kind.is(.assign) { head.append(.space) }
            let spaced = kind.is(.kwLocal) || kind.is(.kwReturn) || kind.is(.assign)
            head.append(token(kind))
            if spaced { head.append(.space) }
        }
        let close = emitBrokenTable(value, head: .concat(head))
        guard isReturn, kind.is(.semicolon) else { return close }
        return .concat([close, dropToken(.semicolon)])
    }

    /// Prints `head`, the `{` of table `id` (at the cursor, broken in the source) and its fields
    /// a level deeper, a line each, then the line of its `}`, which it returns.
    mutating func emitBrokenTable(_ id: SyntaxTree.NodeID, head: Doc) -> Doc {
        let node = tree[id]
        let fields = tree.list(node.a, node.b)
        let commentsBefore = commentCount
        printer!.append(.concat([head, token(.leftBrace)]), indent: depth)
        depth += 1
        for (position, field) in fields.enumerated() {
            printer!.append(.hardLine, indent: depth)
            let leading = leadingComments(of: cursor, atStatement: true, keepBlank: true)
            leadingDoneFor = cursor
            var doc: Doc
            if leading.isEmpty, let settled = settledField() {
                doc = settled
            } else if let end = emitFunctionField(field, leading: leading) {
                doc = end
            } else if let nested = brokenTableField(field) {
                for comment in leading { printer!.append(comment, indent: depth) }
                var key: [Doc] = []
                if tree[field].kind != .positionalField { key = [token(.name), .space, token(.assign), .space] }
                doc = emitBrokenTable(nested, head: .concat(key))
            } else {
                var holdsFunction = false
                let value = self.field(field, holdsFunction: &holdsFunction)
                doc = leading.isEmpty ? value : Doc.concat(leading + [value])
            }
            let last = position + 1 == fields.count
            if kind.is(.comma) || kind.is(.semicolon) {
                doc = .concat([doc, last ? dropToken(kind) : token(kind, text: ",")])
            }
            printer!.append(last ? .concat([doc, .text(",")]) : doc, indent: depth)
        }
        let closeComments = blockEndComments(hasStatements: true)
        if !closeComments.isEmpty {
            printer!.append(.hardLine, indent: depth)
            for comment in closeComments { printer!.append(comment, indent: depth) }
        }
        depth -= 1
        commentCount = commentsBefore
        printer!.append(.hardLine, indent: depth)
        return token(.rightBrace)
    }

    /// The field at the cursor as one text, as `settledStatement` takes a statement: without a
    /// function or a comment, its tokens settled (`settledEnd`), and with the
    /// `,` printed after it within the column width (its flat layout fits, so the printer
    /// prints it flat, and that is this text); the cursor then at its `,`, `;` or `}`. Else nil,
    /// nothing consumed. A comment after its `,` stays the `,`'s, as on the full path; a block
    /// comment there (measured on the line) takes the full path.
    mutating func settledField() -> Doc? {
        guard settledAllowed, let (last, respaced, extra) = settledEnd(closing: .comma),
            !stream.hasComment(before: last + 1)
        else { return nil }
        let separated = stream.tokens[last + 1].kind.is(.comma) || stream.tokens[last + 1].kind.is(.semicolon)
        if separated && hasLongTrailingComment(after: last + 1) { return nil }
        let (text, _, length) = settledText(last: last, respaced: respaced)
        guard (depth + functionIndent) * options.indentColumns + length + 1 + extra <= options.columnWidth else {
            return nil
        }
        cursor = last + 1
        return text
    }

    /// A field whose value is a function holding statements, `name = function(...)` or a lone
    /// `function(...)`: a function on the field's line, emitted as `emitFunctionValue` emits one
    /// after `=` (the comments before the field, the field's head and signature printed, then
    /// its block); returns its `end`. Nil when the field is not one, or a comment after its name
    /// or `=` hangs the value (laid out whole then), nothing consumed.
    mutating func emitFunctionField(_ id: SyntaxTree.NodeID, leading: [Doc]) -> Doc? {
        let node = tree[id]
        let value = node.kind == .positionalField ? node.a : node.b
        guard tree[value].kind == .function, !tree.statements(of: tree[value].c).isEmpty else { return nil }
        var head: [Doc] = []
        if node.kind != .positionalField {
            guard kind.is(.name), kind(at: 1).is(.assign), !stream.hasComment(before: cursor + 1),
                !stream.hasComment(before: cursor + 2)
            else { return nil }
            head = [token(.name), .space, token(.assign), .space]
        }
        for comment in leading { printer!.append(comment, indent: depth) }
        head.append(token(.kwFunction))
        return functionBody(value, definition: false, emitting: true, head: .concat(head))
    }

    /// The table that field `id` (at the cursor) holds when it is `{`, broken in the source, or
    /// `name = {` so, without comments before its `{`; else nil.
    func brokenTableField(_ id: SyntaxTree.NodeID) -> SyntaxTree.NodeID? {
        let node = tree[id]
        let value: SyntaxTree.NodeID
        var brace = cursor
        switch node.kind {
        case .positionalField:
            value = node.a
        default:
            guard kind.is(.name) else { return nil }
            value = node.b
            brace = cursor + 2
            guard !stream.hasComment(before: cursor + 1) && !stream.hasComment(before: brace) else { return nil }
        }
        guard tree[value].kind == .table, tree[value].b > 0, stream.tokens[brace].kind.is(.leftBrace),
            startsLine(after: brace)
        else { return nil }
        return value
    }
}
