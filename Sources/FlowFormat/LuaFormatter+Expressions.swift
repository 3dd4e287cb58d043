import LuaSyntax

extension LuaFormatter {
    mutating func expressionList(_ values: [SyntaxTree.NodeID]) -> Doc {
        var parts: [Doc] = []
        for (position, value) in values.enumerated() {
            if position > 0 { parts.append(contentsOf: [token(.comma), .space]) }
            parts.append(expression(value))
        }
        return .concat(parts)
    }

    mutating func expression(_ id: SyntaxTree.NodeID) -> Doc {
        let node = tree[id]
        switch node.kind {
        case .nilLiteral: return token(.kwNil)
        case .trueLiteral: return token(.kwTrue)
        case .falseLiteral: return token(.kwFalse)
        case .vararg: return token(.dots)
        case .number: return token(.number)
        case .string: return stringToken()
        case .name: return token(.name)
        case .index, .call, .methodCall: return suffixedExpression(id)
        case .function:
            let keyword = token(.kwFunction)
            return .concat([keyword, functionBody(id, definition: false)])
        case .binary: return binaryExpression(id, indented: true)
        case .unary: return unaryExpression(node)
        case .paren:
            let breaksBefore = breakCount
            let open = token(.leftParen)
            let inner = expression(node.a)
            let close = token(.rightParen)
            return .group(
                .concat([open, .indent(.concat([.softLine, inner])), .softLine, close]),
                broken: breakCount != breaksBefore)
        case .table: return table(id)
        default:
            preconditionFailure("not an expression: \(node.kind)")
        }
    }

    /// A string literal in the configured quotes (long strings as they are).
    mutating func stringToken() -> Doc {
        let text = stream.text(cursor)
        return token(.string, text: StringQuotes.requote(text, style: options.quoteStyle))
    }

    mutating func unaryExpression(_ node: SyntaxNode) -> Doc {
        let op = UnaryOperator(rawValue: node.op)
        let symbol: LuaTokenKind =
            switch op {
            case .negate: .minus
            case .not: .kwNot
            case .length: .hash
            default: .tilde
            }
        let keyword = token(symbol)
        // `- -x` must not become the comment `--x`; `not` is a word.
        let spaced = op == .not || (op == .negate && kind == .minus) || false
        let operand = expression(node.a)
        return .concat(spaced ? [keyword, .space, operand] : [keyword, operand])
    }

    /// `a op b op c ...`: the operands of a left-leaning run of binary operators, read with a
    /// loop (such runs nest without bound), laid out on one line or broken before each operator.
    mutating func binaryExpression(_ id: SyntaxTree.NodeID, indented: Bool) -> Doc {
        let breaksBefore = breakCount
        let level = Self.precedence(tree[id].op)
        var rest: [Doc] = []
        let first: Doc
        if level == 9 || level == 14 {
            // `..` and `^` lean right: `a .. (b .. c)`, read down the right side.
            first = expression(tree[id].a)
            var current = id
            while true {
                let (op, comments) = binaryOperator()
                let right = tree[current].b
                if tree[right].kind == .binary && Self.precedence(tree[right].op) == level {
                    let operand = expression(tree[right].a)
                    rest.append(.concat(comments + [.line, op, .space, operand]))
                    current = right
                } else {
                    rest.append(.concat(comments + [.line, op, .space, expression(right)]))
                    break
                }
            }
        } else {
            var chain: [SyntaxTree.NodeID] = []
            var current = id
            while tree[current].kind == .binary && Self.precedence(tree[current].op) == level {
                chain.append(current)
                current = tree[current].a
            }
            first = expression(current)
            for node in chain.reversed() {
                let (op, comments) = binaryOperator()
                let operand = expression(tree[node].b)
                rest.append(.concat(comments + [.line, op, .space, operand]))
            }
        }
        let hung = Doc.concat(rest)
        // Broken when it does not fit or holds a comment; a table or function inside breaks on its own.
        // Indented only when it hangs: a table inside a run laid out flat keeps the line's indentation.
        let tail: Doc = indented ? .ifBreak(broken: .indent(hung), flat: hung) : hung
        return .group(.concat([first, tail]), broken: breakCount != breaksBefore)
    }

    /// A binary operator, and the comments after it on its line: they stay with the operand
    /// before it, as the operator moves to the start of the next line when the run hangs.
    mutating func binaryOperator() -> (Doc, [Doc]) {
        let index = cursor
        let op = token(stream.tokens[index].kind, keepingTrailing: false)
        var comments: [Doc] = []
        appendTrailingComments(of: index, to: &comments)
        return (op, comments)
    }

    /// Lua's binary priority (left side), which tells runs of one level apart.
    static func precedence(_ op: UInt8) -> Int {
        switch BinaryOperator(rawValue: op) {
        case .or: return 1
        case .and: return 2
        case .equal, .less, .lessEqual, .notEqual, .greater, .greaterEqual: return 3
        case .bitwiseOr: return 4
        case .bitwiseXor: return 5
        case .bitwiseAnd: return 6
        case .shiftLeft, .shiftRight: return 7
        case .concat: return 9
        case .add, .subtract: return 10
        case .power: return 14
        default: return 11
        }
    }

    /// `prefix.name[key]:method(args)(args)...`: the chain read with a loop, outermost last.
    /// With two calls or more it may hang, a call a line, as StyLua does: when it does not fit,
    /// or when a call before the last has an argument that spans lines.
    mutating func suffixedExpression(_ id: SyntaxTree.NodeID) -> Doc {
        var chain: [SyntaxTree.NodeID] = []
        var current = id
        while true {
            let kind = tree[current].kind
            guard kind == .index || kind == .call || kind == .methodCall else { break }
            chain.append(current)
            current = tree[current].a
        }
        chain.reverse()
        let base = expression(current)
        var links: [Doc] = []
        var hangPoints: [Bool] = []
        var internalSpans = false
        let lastCall = chain.lastIndex { tree[$0].kind != .index } ?? -1
        for (position, link) in chain.enumerated() {
            let node = tree[link]
            let followedBySuffix = position + 1 < chain.count
            switch node.kind {
            case .index:
                let beforeCall = followedBySuffix && tree[chain[position + 1]].kind == .call
                hangPoints.append(beforeCall)
                if kind == .dot {
                    let dot = token(.dot)
                    links.append(.concat([dot, token(.name)]))
                } else {
                    let open = token(.leftBracket)
                    let padded = stream.text(cursor).hasPrefix("[")
                    let key = expression(node.b)
                    let close = token(.rightBracket)
                    links.append(.concat(padded ? [open, .space, key, .space, close] : [open, key, close]))
                }
            case .methodCall:
                hangPoints.append(true)
                let colon = token(.colon)
                let name = token(.name)
                let arguments = self.arguments(link, followedBySuffix: followedBySuffix)
                if position < lastCall && arguments.isHard { internalSpans = true }
                links.append(.concat([colon, name, arguments]))
            default:
                hangPoints.append(false)
                let arguments = self.arguments(link, followedBySuffix: followedBySuffix)
                if position < lastCall && arguments.isHard { internalSpans = true }
                links.append(arguments)
            }
        }
        let calls = hangPoints.filter { $0 }.count
        guard calls > 1 else { return .concat([base] + links) }
        var inlineFirst = false
        if tree[current].kind == .name {
            let name = tree.text(of: current)
            inlineFirst = name.first?.isUppercase == true || name.utf8.count <= options.indentWidth
        }
        var parts: [Doc] = []
        var seenHang = false
        for (link, hangs) in zip(links, hangPoints) {
            if hangs {
                if seenHang || !inlineFirst { parts.append(.softLine) }
                seenHang = true
            }
            parts.append(link)
        }
        if inlineFirst && calls == 2 { return .concat([base] + links) }
        // Broken when a call before the last spans lines, else only when the chain does not fit
        // up to its first forced break (a table or function inside breaks on its own).
        let chainDoc = Doc.concat(parts)
        return .concat([base, .group(.ifBreak(broken: .indent(chainDoc), flat: chainDoc), broken: internalSpans)])
    }
}
