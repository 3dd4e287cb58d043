import LuaSyntax

extension LuaFormatter {
    /// `local a <const>, b = x, y`.
    mutating func localStatement(_ node: SyntaxNode) -> Doc {
        var parts: [Doc] = []
        parts.reserveCapacity(Int(node.b) * 3 + 5)
        parts.append(contentsOf: [token(.kwLocal), .space])
        for position in 0..<Int(node.b) {
            if position > 0 { parts.append(contentsOf: [token(.comma), .space]) }
            parts.append(token(.name))
            if kind.is(.less) {
                parts.append(contentsOf: [.space, token(.less), token(.name), token(.greater)])
            }
        }
        if node.c > 0 {
            let values = Array(tree.list(node.a + node.b, node.c))
            parts.append(contentsOf: [.space, token(.assign)])
            parts.append(assignedValues(values))
        }
        return .concat(parts)
    }

    /// `a, b.c = x, y`.
    mutating func assignment(_ node: SyntaxNode) -> Doc {
        let targets = Array(tree.list(node.a, node.b))
        let values = Array(tree.list(node.a + node.b, node.c))
        var parts: [Doc] = []
        parts.reserveCapacity(targets.count * 3 + 3)
        for (position, target) in targets.enumerated() {
            if position > 0 { parts.append(contentsOf: [token(.comma), .space]) }
            parts.append(expression(target))
        }
        parts.append(contentsOf: [.space, token(.assign)])
        parts.append(assignedValues(values))
        return .concat(parts)
    }

    /// ` values` after `=`. A lone value that neither hangs at its operators nor breaks inside
    /// (a long name chain, a string) moves to the next line, indented, when it does not fit.
    mutating func assignedValues(_ values: [SyntaxTree.NodeID]) -> Doc {
        let commentAfterEquals = stream.hasComment(before: cursor)
        if !commentAfterEquals && values.count == 1 && tree[values[0]].kind == .binary {
            return .concat([.space, hangingValue(values[0])])
        }
        if commentAfterEquals {
            // StyLua hangs at the `=`: the comments, then the values, on the lines after it.
            let list =
                values.count == 1 && tree[values[0]].kind == .binary
                ? binaryExpression(values[0], indented: false) : expressionList(values)
            return .indent(.concat([.hardLine, list]))
        }
        let list = expressionList(values)
        guard values.count == 1 else { return .assigned(list) }
        switch tree[values[0]].kind {
        case .function:
            return .concat([.space, list])
        case .call, .methodCall:
            if isComplexCall(values[0]) { return .concat([.space, list]) }
            return .assigned(list)
        default:
            return .assigned(list)
        }
    }

    /// The values after `return`. Values that do not fit on the line (their line breaks and
    /// indentation counted, as StyLua measures) go one a line, hung after the first, unless they
    /// are all functions and tables.
    mutating func returnValues(_ values: [SyntaxTree.NodeID]) -> Doc {
        if values.count == 1 && tree[values[0]].kind == .binary { return hangingValue(values[0]) }
        var docs: [Doc] = []
        var commas: [Doc] = []
        for (position, value) in values.enumerated() {
            if position > 0 { commas.append(token(.comma)) }
            docs.append(expression(value))
        }
        var normalParts = [docs[0]]
        var longParts: [Doc] = []
        for position in 1..<docs.count {
            normalParts.append(contentsOf: [commas[position - 1], .space, docs[position]])
            longParts.append(contentsOf: [commas[position - 1], .hardLine, docs[position]])
        }
        let normal = Doc.concat(normalParts)
        let kinds = values.map { tree[$0].kind }
        if values.count == 1 || kinds.allSatisfy({ $0 == .function || $0 == .table }) { return normal }
        return .whenLong(probe: normal, short: normal, long: .concat([docs[0], .indent(.concat(longParts))]))
    }

    /// A lone value after `=` or `return` that is a run of operators: as it is when it fits
    /// (line breaks inside counted); else hung at its operators when that makes the first line
    /// shorter than leaving them on the line, as StyLua chooses.
    mutating func hangingValue(_ id: SyntaxTree.NodeID) -> Doc {
        let run = binaryRun(id, indent: 1)
        if run.broken { return run.doc(indent: 1) }
        let hung = run.hanging(indent: 1)
        let normal = run.normal
        return .whenLong(probe: normal, short: normal, long: .shorterFirstLine(hung: hung, normal: normal))
    }

    /// StyLua keeps a call on the `=` line when an argument is a function or two are tables, or
    /// when its base is in parentheses.
    func isComplexCall(_ id: SyntaxTree.NodeID) -> Bool {
        var current = id
        while true {
            let node = tree[current]
            switch node.kind {
            case .call, .methodCall:
                var tables = 0
                for argument in tree.arguments(of: current) {
                    if tree[argument].kind == .function { return true }
                    if tree[argument].kind == .table { tables += 1 }
                }
                if tables > 1 { return true }
                current = node.a
            case .index:
                current = node.a
            case .paren:
                // StyLua hangs such a call (its base in parentheses) at its operators, never at the `=`.
                return true
            default:
                return false
            }
        }
    }
}
