import LuaSyntax

/// Assignments, field writes and function definitions.
extension ModuleLinter {
    // MARK: Assignments

    mutating func assign(to target: Int32) {
        let node = nodes[Int(target)]
        if node.kind == .name {
            let bound = scopes.binding(of: node.a)
            if bound >= 0 {
                noteUse(of: bound)
                variables[Int(bound)].assigned = true
            } else if isFreeName(node.a) {
                facts.globalSets.append(
                    .init(global: text(node.a), line: node.line, column: node.column, isTopLevel: frames.count == 1))
            }
            return
        }
        guard node.kind == .index else { return walk(target) }
        mutate(node.a, key: node.b, at: node)
        walk(node.b)
    }

    /// `base[key] = v` or `base.key = v`: mutates a local table, or a global's field.
    mutating func mutate(_ base: Int32, key: Int32, at node: SyntaxNode) {
        let object = nodes[Int(base)]
        if object.kind == .index, mutateNested(base, key: key) { return }
        guard object.kind == .name else { return walk(base) }
        let bound = scopes.binding(of: object.a)
        if bound >= 0 {
            noteUse(of: bound)
            variables[Int(bound)].mutated = true
            noteFieldWrite(bound, key: nodes[Int(key)])
        } else if isFreeName(object.a) {
            let keyNode = nodes[Int(key)]
            let field = keyNode.kind == .string ? text(keyNode.a) : ""
            facts.globalFieldSets.append(
                .init(global: text(object.a), field: field, line: object.line, column: object.column))
        }
    }

    /// `a.b.c = v` on a global `a`: luacheck counts it a mutation of `a` (112), or on a library
    /// table a field `b.c` set on it (142), at `a`'s place. False (nothing done) when the chain
    /// does not start at a global; its reads are then walked as any expression's.
    mutating func mutateNested(_ base: Int32, key: Int32) -> Bool {
        var current = base
        var isLiteralPath = nodes[Int(key)].kind == .string
        while nodes[Int(current)].kind == .index {
            if nodes[Int(nodes[Int(current)].b)].kind != .string { isLiteralPath = false }
            current = nodes[Int(current)].a
        }
        let root = nodes[Int(current)]
        guard root.kind == .name, isFreeName(root.a) else { return false }
        var path: [String] = []
        var link = base
        while nodes[Int(link)].kind == .index {
            let step = nodes[Int(link)]
            walk(step.b)
            if isLiteralPath { path.append(text(nodes[Int(step.b)].a)) }
            link = step.a
        }
        let field = isLiteralPath ? (path.reversed() + [text(nodes[Int(key)].a)]).joined(separator: ".") : ""
        facts.globalFieldSets.append(.init(global: text(root.a), field: field, line: root.line, column: root.column))
        return true
    }

    /// `function name()`, `function a.b()`, `function a:b()`, `function a.b.c()`.
    mutating func assignFunctionTarget(_ target: Int32) {
        let node = nodes[Int(target)]
        if node.kind == .name { return assign(to: target) }
        guard node.kind == .index else { return }
        mutate(node.a, key: node.b, at: node)
    }

    /// The place of `:` in `function a:b()`, when the target is a method's.
    // `mutating` though it changes nothing: a non-mutating method called from the walk copies
    // the whole walker (retaining each of its arrays) at every call.
    mutating func methodColon(of target: Int32) -> (line: Int32, column: Int32)? {
        let node = nodes[Int(target)]
        guard node.kind == .index else { return nil }
        let key = nodes[Int(node.b)]
        var offset = self.offset(line: key.line, column: key.column) - 1
        while offset > 0, byte(at: offset) == 0x20 || byte(at: offset) == 0x09 { offset -= 1 }
        guard byte(at: offset) == UInt8(ascii: ":") else { return nil }
        return place(of: offset)
    }
}
