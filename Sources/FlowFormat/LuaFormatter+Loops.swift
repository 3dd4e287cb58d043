import LuaSyntax

/// The loops' layouts: `repeat ... until`, numeric and generic `for`.
extension LuaFormatter {
    mutating func repeatLoop(_ node: SyntaxNode, emitting: Bool) -> Doc {
        let open = token(.kwRepeat)
        var inner: Doc
        if emitting && !tree.statements(of: node.a).isEmpty {
            printer!.append(open, indent: depth)
            emitBlock(node.a)
            inner = .hardLine
        } else {
            inner = body(node.a)
        }
        // StyLua keeps a blank line before `until`.
        let trivia = stream.trivia(before: cursor)
        if trivia.count == 1, case .newlines(let count) = trivia[0], count > 1 {
            if emitting && !tree.statements(of: node.a).isEmpty {
                inner = .concat([.emptyLine, .hardLine])
            } else if case .concat(let parts, _) = inner {
                inner = .concat(parts.dropLast() + [.emptyLine, .hardLine])
            }
        }
        let until = token(.kwUntil)
        let (flat, hung) = condition(node.b)
        let tail: [Doc] = [inner, until, .space, .group(.ifBreak(broken: .indent(hung), flat: flat))]
        if emitting && !tree.statements(of: node.a).isEmpty { return .concat(tail) }
        return .concat([open] + tail)
    }

    mutating func numericFor(_ node: SyntaxNode, emitting: Bool) -> Doc {
        let items = tree.list(node.a, node.b)
        var parts = [token(.kwFor), .space, token(.name), .space, token(.assign), .space]
        for (position, item) in items.dropFirst().enumerated() {
            if position > 0 { parts.append(contentsOf: [token(.comma), .space]) }
            parts.append(expression(item))
        }
        parts.append(contentsOf: [.space, token(.kwDo)])
        return headerThenBody(parts, node.c, emitting)
    }

    /// A loop's header `parts`, then its block and `end`; the header printed when `emitting`.
    mutating func headerThenBody(_ header: [Doc], _ block: SyntaxTree.NodeID, _ emitting: Bool) -> Doc {
        var parts = header
        if emitting {
            parts = []
            put(.concat(header), &parts, emitting)
        }
        putBody(block, &parts, emitting)
        return ending(token(.kwEnd), parts)
    }

    mutating func genericFor(_ node: SyntaxNode, emitting: Bool) -> Doc {
        let items = tree.list(node.a, node.b + node.c + 1)
        let forIndex = cursor
        var parts = [token(.kwFor), .space]
        for position in 0..<Int(node.b) {
            if position > 0 { parts.append(contentsOf: [token(.comma), .space]) }
            parts.append(token(.name))
        }
        parts.append(contentsOf: [.space, token(.kwIn)])
        let values = Array(items.dropFirst(Int(node.b)).prefix(Int(node.c)))
        let first = cursor
        if let settled = settledForValues(forIndex: forIndex) {
            parts.append(settled)
        } else if values.count == 1 && huggedIterator(values[0]) && !stream.hasComment(before: first) {
            parts.append(contentsOf: [.space, expression(values[0]), .space, token(.kwDo)])
        } else {
            // StyLua: the values on lines of their own, one a line, when they do not fit, span
            // lines or hold a comment.
            var docs: [Doc] = []
            var commas: [Doc] = []
            for (position, value) in values.enumerated() {
                if position > 0 { commas.append(token(.comma)) }
                docs.append(expression(value))
            }
            let comments = hasComments(from: first, to: cursor)
            var flat = [docs[0]], broken = [docs[0]]
            for position in 1..<max(docs.count, 1) {
                flat.append(contentsOf: [commas[position - 1], .space, docs[position]])
                broken.append(contentsOf: [commas[position - 1], .hardLine, docs[position]])
            }
            let list = Doc.ifBreak(broken: .concat(broken), flat: .concat(flat))
            let keyword = token(.kwDo)
            // StyLua measures the values without the ` do` after them.
            let closing = Doc.ifBreak(broken: .concat([.line, keyword]), flat: .uncounted(.concat([.line, keyword])))
            parts.append(.group(.concat([.indent(.concat([.line, list])), closing]), broken: comments))
        }
        return headerThenBody(parts, items[items.endIndex - 1], emitting)
    }

    /// Whether a comment lies before any of the tokens `first...last`.
    func hasComments(from first: Int, to last: Int) -> Bool {
        (first...last).contains { stream.hasComment(before: $0) }
    }

    /// `f({ ... })` or `f { ... }`, a call of a plain name with one table: it stays on the `in` line.
    func huggedIterator(_ id: SyntaxTree.NodeID) -> Bool {
        guard tree[id].kind == .call, tree[tree[id].a].kind == .name else { return false }
        let arguments = Array(tree.arguments(of: id))
        return arguments.count == 1 && tree[arguments[0]].kind == .table
    }
}
