import LuaSyntax

extension LuaFormatter {
    mutating func expressionList(_ values: [SyntaxTree.NodeID]) -> Doc {
        var parts: [Doc] = []
        parts.reserveCapacity(values.count * 3)
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
            let levels = cursor - statementStart
            let keyword = token(.kwFunction)
            functionIndent += levels
            defer { functionIndent -= levels }
            return .concat([keyword, functionBody(id, definition: false)])
        case .binary: return binaryExpression(id, indented: true)
        case .unary: return unaryExpression(node)
        case .paren: return parenExpression(node, hugging: false)
        case .table: return table(id)
        default:
            preconditionFailure("not an expression: \(node.kind)")
        }
    }

    /// `(expression)`. `hugging`: the base of a call or index, which StyLua never breaks inside
    /// its parentheses.
    mutating func parenExpression(_ node: SyntaxNode, hugging: Bool) -> Doc {
        let breaksBefore = breakCount
        let open = token(.leftParen)
        if hugging || tree[node.a].kind == .function || tree[node.a].kind == .table {
            // `(function() ... end)()`, `({ ... })[key]`: a function or table hugs its parentheses.
            let inner = expression(node.a)
            return .concat([open, inner, token(.rightParen)])
        }
        // Inside parentheses that break, a run of operators hangs at the operand's own indentation.
        var inner: Doc
        if tree[node.a].kind == .binary {
            let run = binaryRun(node.a, indent: 0)
            inner = .ifBreak(broken: run.hanging(indent: 0), flat: run.doc(indent: 0))
        } else {
            inner = expression(node.a)
        }
        let close = token(.rightParen)
        // Broken for a comment, or for what spans lines inside (StyLua measures it with its line breaks).
        return .group(
            .concat([open, .indent(.concat([.softLine, inner])), .softLine, close]),
            broken: breakCount != breaksBefore || inner.isHard)
    }

    /// A string literal in the configured quotes (long strings as they are).
    mutating func stringToken(keepingTrailing: Bool = true) -> Doc {
        let literal = stream.tokens[cursor]
        if literal.length >= 2 && stream.source[Int(literal.offset)] == settledQuote && !quoteInside(cursor) {
            // Already in its quotes, none inside: as it is (what `requote` gives it).
            return token(.string, keepingTrailing: keepingTrailing)
        }
        let text = stream.text(cursor)
        return self.token(
            .string, text: StringQuotes.requote(text, style: options.quoteStyle), keepingTrailing: keepingTrailing)
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
        let spaced = op == .not || (op == .negate && kind.is(.minus)) || false
        let operand = expression(node.a)
        return .concat(spaced ? [keyword, .space, operand] : [keyword, operand])
    }

    /// A run of binary operators of one level: its first operand, then each operator (with the
    /// comments that stay before it) and operand, each also as StyLua's "normal" formatting
    /// lays it out (runs inside kept on the line).
    struct BinaryRun {
        var first: Doc
        var firstNormal: Doc
        /// The first operand when the run hangs: a run inside that is long (its line breaks
        /// counted, as StyLua measures) hangs too.
        var firstHanging: Doc
        var rest: [(comments: [Doc], op: Doc, operand: Doc, normal: Doc)] = []
        /// A comment inside breaks the run.
        var broken = false
        /// A lone operator that started its line in the source: StyLua's measure of `op rhs`
        /// then counts the indentation before it and the line break after the operand.
        var operatorStartedLine = false

        func parts(_ separator: Doc, normal: Bool = false) -> Doc {
            .concat(
                rest.map { part in
                    let operand = normal ? part.normal : part.operand
                    if part.comments.isEmpty { return .concat([separator, part.op, .space, operand]) }
                    return .concat(part.comments + [separator, part.op, .space, operand])
                })
        }

        /// Laid out on one line or broken before each operator; indented `indent` levels when it
        /// hangs. Not broken for a table or function inside, which breaks on its own.
        func doc(indent: Int) -> Doc {
            let line = parts(.line)
            var hung = line
            for _ in 0..<indent { hung = .indent(hung) }
            let content = Doc.concat([first, .ifBreak(broken: hung, flat: line)])
            let group = Doc.group(content, broken: broken)
            return content.isHard && !broken ? .concat([group, .breakParent]) : group
        }

        /// StyLua's hanging of a run (after `=`, `return`, in a condition, inside parentheses):
        /// three operands or more always hang; two hang when they do not fit, as StyLua measures.
        func hanging(indent: Int) -> Doc {
            let line = parts(.line)
            var hung = line
            for _ in 0..<indent { hung = .indent(hung) }
            let flat = Doc.concat([operatorStartedLine ? .measuredIndent(indent) : .empty, line])
            let content = Doc.concat([firstHanging, .ifBreak(broken: hung, flat: flat)])
            return .group(content, broken: broken || rest.count > 1 || content.isHard)
        }

        /// StyLua's "format normally": the operators stay on the line, what they join breaks inside.
        /// Each operand measured alone, as StyLua's shapes do: a call breaks only when it does
        /// not fit itself.
        var normal: Doc {
            var tail = Doc.empty
            for part in rest.reversed() {
                tail = .followsAlone(.concat(part.comments + [.space, part.op, .space, part.normal, tail]))
            }
            return .concat([firstNormal, tail])
        }
    }

    /// `a op b op c ...`: the operands of a left-leaning run of binary operators, read with a
    /// loop (such runs nest without bound), laid out on one line or broken before each operator.
    mutating func binaryExpression(_ id: SyntaxTree.NodeID, indented: Bool) -> Doc {
        binaryRun(id, indent: indented ? 1 : 0).doc(indent: indented ? 1 : 0)
    }

    mutating func binaryRun(_ id: SyntaxTree.NodeID, indent: Int) -> BinaryRun {
        let level = Self.precedence(tree[id].op)
        var run: BinaryRun
        var breaksBefore = breakCount
        var lastOperator = 0
        if level == 9 || level == 14 {
            // `..` and `^` lean right: `a .. (b .. c)`, read down the right side.
            let (first, firstNormal, firstHanging) = firstOperand(tree[id].a, level: level, indent: indent)
            run = BinaryRun(first: first, firstNormal: firstNormal, firstHanging: firstHanging)
            breaksBefore = breakCount
            var current = id
            while true {
                lastOperator = cursor
                let (op, comments) = binaryOperator()
                let right = tree[current].b
                if tree[right].kind == .binary && Self.precedence(tree[right].op) == level {
                    let (operand, normal) = self.operand(tree[right].a, level: level, indent: 0)
                    run.rest.append((comments, op, operand, normal))
                    current = right
                } else {
                    let (operand, normal) = self.operand(right, level: level, indent: 0)
                    run.rest.append((comments, op, operand, normal))
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
            let (first, firstNormal, firstHanging) = firstOperand(current, level: level, indent: indent)
            run = BinaryRun(first: first, firstNormal: firstNormal, firstHanging: firstHanging)
            // Comments before the first operand belong to what holds the run.
            breaksBefore = breakCount
            for node in chain.reversed() {
                lastOperator = cursor
                let (op, comments) = binaryOperator()
                let (operand, normal) = self.operand(tree[node].b, level: level, indent: 0)
                run.rest.append((comments, op, operand, normal))
            }
        }
        run.broken = breakCount != breaksBefore
        if run.rest.count == 1 { run.operatorStartedLine = startsLine(lastOperator) }
        return run
    }

    /// Whether token `index` is the first on its line in the source.
    func startsLine(_ index: Int) -> Bool {
        var position = Int(stream.tokens[index].offset)
        while position > 0 && (stream.source[position - 1] == 32 || stream.source[position - 1] == 9) {
            position -= 1
        }
        return position > 0 && (stream.source[position - 1] == 10 || stream.source[position - 1] == 13)
    }

    /// The first operand of a run, also as it lays out when the run hangs.
    mutating func firstOperand(_ id: SyntaxTree.NodeID, level: Int, indent: Int) -> (Doc, Doc, Doc) {
        guard tree[id].kind == .binary, Self.precedence(tree[id].op) != level else {
            let doc = expression(id)
            return (doc, doc, doc)
        }
        let run = binaryRun(id, indent: indent + 1)
        let doc = run.doc(indent: indent + 1)
        guard !run.broken else { return (doc, doc, doc) }
        var forced = run.parts(.line)
        for _ in 0...indent { forced = .indent(forced) }
        let hung = Doc.group(.concat([run.firstHanging, forced]), broken: true)
        let normal = run.normal
        return (doc, normal, .whenLong(probe: normal, short: doc, long: hung))
    }

    /// An operand of a run: a run of another level there hangs `indent` levels further (one
    /// more for the first operand, which stays on the line before the operators).
    mutating func operand(_ id: SyntaxTree.NodeID, level: Int, indent: Int) -> (Doc, normal: Doc) {
        guard tree[id].kind == .binary, Self.precedence(tree[id].op) != level else {
            let doc = expression(id)
            return (doc, doc)
        }
        let depth = indent == 0 ? 1 : indent + 1
        let run = binaryRun(id, indent: depth)
        let doc = run.doc(indent: depth)
        return (doc, run.broken ? doc : run.normal)
    }

    /// How many operands the run of operators of `id`'s level holds (2 for `a or b`).
    func operandCount(_ id: SyntaxTree.NodeID) -> Int {
        let level = Self.precedence(tree[id].op)
        var count = 1
        var pending = [id]
        while let node = pending.popLast() {
            if tree[node].kind == .binary && Self.precedence(tree[node].op) == level {
                pending.append(tree[node].a)
                pending.append(tree[node].b)
            } else {
                count += 1
            }
        }
        return count - 1
    }

    /// A binary operator, and the comments after it on its line: they stay with the operand
    /// before it, as the operator moves to the start of the next line when the run hangs.
    mutating func binaryOperator() -> (Doc, [Doc]) {
        let index = cursor
        let op = token(stream.tokens[index].kind, keepingTrailing: false)
        var comments: [Doc] = []
        appendTrailingComments(of: index, to: &comments)
        if pendingBreak {
            // The comment moves before the operator with the line break it ends: it breaks the
            // run, not the operand after it (which a second formatting would not break).
            pendingBreak = false
            breakCount += 1
        }
        // StyLua moves the comments on lines of their own before the operand to before the
        // operator, each on its line.
        if stream.hasComment(before: cursor) {
            for comment in leadingComments(of: cursor, atStatement: false) {
                if case .hardLine = comment { continue }
                comments.append(contentsOf: [.hardLine, comment])
            }
            leadingDoneFor = cursor
        }
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
        chain.reserveCapacity(8)
        var current = id
        while true {
            let kind = tree[current].kind
            guard kind == .index || kind == .call || kind == .methodCall else { break }
            chain.append(current)
            current = tree[current].a
        }
        chain.reverse()
        let base = tree[current].kind == .paren ? parenExpression(tree[current], hugging: true) : expression(current)
        // The base, then a layout for each link (index, call or method call).
        var links: [Doc] = []
        links.reserveCapacity(chain.count + 1)
        links.append(base)
        var internalSpans = false
        let lastCall = chain.lastIndex { tree[$0].kind != .index } ?? -1
        for (position, link) in chain.enumerated() {
            let node = tree[link]
            let followedBySuffix = position + 1 < chain.count
            switch node.kind {
            case .index:
                if kind.is(.dot) {
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
                let commentsBefore = commentCount
                let colon = token(.colon)
                let name = token(.name)
                let arguments = self.arguments(link, followedBySuffix: followedBySuffix, commentsSince: commentsBefore)
                if position < lastCall && arguments.isHard { internalSpans = true }
                links.append(.concat([colon, name, arguments]))
            default:
                let arguments = self.arguments(link, followedBySuffix: followedBySuffix)
                if position < lastCall && arguments.isHard { internalSpans = true }
                links.append(arguments)
            }
        }
        let calls = chain.indices.reduce(0) { $0 + (hangs(before: $1, of: chain) ? 1 : 0) }
        guard calls > 1 else { return .concat(links) }
        var inlineFirst = false
        if tree[current].kind == .name {
            let name = tree.text(of: current)
            inlineFirst = name.first?.isUppercase == true || name.utf8.count <= options.indentWidth
        }
        var parts: [Doc] = []
        parts.reserveCapacity(links.count * 2)
        var seenHang = false
        for (position, link) in links.dropFirst().enumerated() {
            if hangs(before: position, of: chain) {
                if seenHang || !inlineFirst { parts.append(.softLine) }
                seenHang = true
            }
            parts.append(link)
        }
        if inlineFirst && calls == 2 { return .concat(links) }
        // Broken when a call before the last spans lines, else only when the chain does not fit
        // up to its first forced break (a table or function inside breaks on its own).
        let chainDoc = Doc.concat(parts)
        return .concat([base, .group(.ifBreak(broken: .indent(chainDoc), flat: chainDoc), broken: internalSpans)])
    }

    /// Whether a chain of calls that hangs breaks before link `position`: a method call, or an
    /// index a call follows (`a.b(...)` breaks before `.b`).
    func hangs(before position: Int, of chain: [SyntaxTree.NodeID]) -> Bool {
        switch tree[chain[position]].kind {
        case .methodCall: return true
        case .index: return position + 1 < chain.count && tree[chain[position + 1]].kind == .call
        default: return false
        }
    }
}
