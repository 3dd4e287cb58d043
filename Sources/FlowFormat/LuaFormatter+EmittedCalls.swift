import LuaSyntax

/// Emission (LuaFormatter+Emission) of a call statement whose last argument is a function
/// with a body: `it("does", function() ... end)`, `vim.keymap.set("n", "x", function() ... end)`.
/// Formatting lays such a call out as the first of two layouts whose first line fits (with its
/// groups flat): the arguments on the call's line, the function's block under them; else one
/// argument a line (`parenthesized`). When the first fits, the block is emitted as a function
/// statement's is.
extension LuaFormatter {
    /// Such a call whose callee is names joined by `.` (and one `:`): prints all but the
    /// function's `end` and the `)`, which it returns; or, when the first line does not fit or
    /// another argument decides the layout otherwise (a comment, a table, a function, a value
    /// that spans lines), the statement's whole layout. Nil when the statement is not such a
    /// call, nothing consumed.
    mutating func emitCallWithFunction(_ id: SyntaxTree.NodeID) -> Doc? {
        guard options.callParentheses == .always, options.spaceAfterFunctionNames == .never,
            tree[id].kind == .callStatement, let call = calleeOfNames(tree[id].a)
        else { return nil }
        let values = tree.arguments(of: call)
        guard let function = values.last, tree[function].kind == .function,
            !tree.statements(of: tree[function].c).isEmpty
        else { return nil }
        let commentsBefore = commentCount
        var head = [expression(tree[call].a)]
        if tree[call].kind == .methodCall {
            head.append(token(.colon))
            head.append(token(.name))
        }
        head.append(token(.leftParen))
        var arguments: [Argument] = []
        var plain = true
        for value in values.dropLast() {
            var argument = self.argument(value)
            argument.doc = .concat([argument.doc, token(.comma)])
            plain = plain && !argument.isTable && !argument.spansLines && !argument.doc.isHard
            arguments.append(argument)
            head.append(argument.doc)
            head.append(.space)
        }
        let levels = cursor - statementStart  // as `expression` counts them for a function
        let keyword = token(.kwFunction)
        let (signature, signatureComment) = parameterList()
        head.append(keyword)
        if plain && commentCount == commentsBefore && !signatureComment
            && printer!.firstLineFits(.concat(head + [signature]), indent: depth)
        {
            let end = functionBody(function, signature: (signature, false), emitting: true, head: .concat(head))
            return .concat([end, token(.rightParen)])
        }
        // Laid out whole, as `arguments` and `suffixedExpression` lay it out.
        let callee = head[0..<(tree[call].kind == .methodCall ? 3 : 1)]
        functionIndent += levels
        let body = functionBody(function, signature: (signature, signatureComment), emitting: false)
        functionIndent -= levels
        let doc = Doc.concat([keyword, body])
        arguments.append(Argument(doc: doc, spansLines: doc.isHard, isTable: false))
        let hasComments = commentCount != commentsBefore
        let close = token(.rightParen)
        let open = head[callee.count]
        return .concat(Array(callee) + [parenthesized(arguments, open: open, close: close, comments: hasComments)])
    }

    /// Call `id` when its callee is a name or names joined by `.`, then a `(` (a method call:
    /// one `:` and a name before it), with no comment before the `(`; else nil.
    func calleeOfNames(_ id: SyntaxTree.NodeID) -> SyntaxTree.NodeID? {
        guard tree[id].kind == .call || tree[id].kind == .methodCall else { return nil }
        var base = tree[id].a
        while tree[base].kind == .index { base = tree[base].a }
        guard tree[base].kind == .name else { return nil }
        var index = cursor + 1
        while stream.tokens[index].kind.is(.dot) && stream.tokens[index + 1].kind.is(.name) { index += 2 }
        if tree[id].kind == .methodCall {
            guard stream.tokens[index].kind.is(.colon) && stream.tokens[index + 1].kind.is(.name) else { return nil }
            index += 2
        }
        guard stream.tokens[index].kind.is(.leftParen) else { return nil }
        for position in (cursor + 1)...index where stream.hasComment(before: position) { return nil }
        return id
    }
}
