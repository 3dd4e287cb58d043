import LuaSyntax

extension LuaFormatter {
    /// `local a <const>, b = x, y`.
    mutating func localStatement(_ node: SyntaxNode) -> Doc {
        var parts = [token(.kwLocal), .space]
        for position in 0..<Int(node.b) {
            if position > 0 { parts.append(contentsOf: [token(.comma), .space]) }
            parts.append(token(.name))
            if kind == .less {
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
        let list = expressionList(values)
        guard !commentAfterEquals else { return .concat([.space, list]) }
        guard values.count == 1 else { return .assigned(list) }
        switch tree[values[0]].kind {
        case .binary, .function:
            return .concat([.space, list])
        case .call, .methodCall:
            if isComplexCall(values[0]) { return .concat([.space, list]) }
            return .assigned(list)
        default:
            return .assigned(list)
        }
    }

    /// StyLua keeps a call on the `=` line when an argument is a function or two are tables.
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
            default:
                return false
            }
        }
    }
}
