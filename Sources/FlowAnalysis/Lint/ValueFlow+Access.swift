import LuaSyntax

/// Reads and writes of locals, expressions scanned for them, and the closures made in them: what
/// `noteAccess` records for `ValueFlowRules.swift` to follow.
extension ValueFlow {
    mutating func noteAccess(_ variable: Int32, kind: ActionKind, line: Int32, column: Int32) {
        if kind == .access { variables[Int(variable)].accessed = true }
        if kind == .mutation { variables[Int(variable)].mutated = true }
        functions[Int(current)].actions.append(
            Action(kind: kind, variable: variable, value: -1, line: line, column: column))
        let owner = variables[Int(variable)].function
        guard owner != current else { return }
        if kind == .set {
            variables[Int(variable)].setInClosure = true
            closureSets.append(
                ClosureSet(
                    variable: variable, item: Int32(functions[Int(owner)].items.count) - 1, line: line, column: column))
        }
        var index = stack.count - 1
        while index >= 0, stack[index] != owner {
            let function = Int(stack[index])
            switch kind {
            case .access:
                if !functions[function].accessedUpvalues.contains(variable) {
                    functions[function].accessedUpvalues.append(variable)
                }
            case .mutation:
                if !functions[function].mutatedUpvalues.contains(variable) {
                    functions[function].mutatedUpvalues.append(variable)
                }
            case .set:
                if !functions[function].setUpvalues.contains(variable) {
                    functions[function].setUpvalues.append(variable)
                }
            }
            index -= 1
        }
    }

    /// Scans an expression into the current item: its reads, and the closures it creates.
    mutating func scan(_ expression: Int32) {
        let mark = pending.count
        pending.append(expression)
        while pending.count > mark {
            let id = pending.removeLast()
            let node = nodes[Int(id)]
            switch node.kind {
            case .name:
                let bound = inScope.binding(of: node.a)
                if bound >= 0 { noteAccess(bound, kind: .access, line: node.line, column: node.column) }
            case .index, .binary, .keyedField:
                pending.append(node.a)
                pending.append(node.b)
            case .call:
                pending.append(node.a)
                for index in Int(node.b)..<Int(node.b + node.c) { pending.append(lists[index]) }
            case .methodCall:
                pending.append(node.a)
                for index in Int(node.b + 1)..<Int(node.b + 1 + node.c) { pending.append(lists[index]) }
            case .unary, .paren, .positionalField:
                pending.append(node.a)
            case .table:
                for index in Int(node.a)..<Int(node.a + node.b) { pending.append(lists[index]) }
            case .function:
                closure(id, implicitSelf: nil)
            default:
                break
            }
        }
    }

    /// A function expression: built as a function of its own, created by the current item.
    mutating func closure(_ id: Int32, implicitSelf: (line: Int32, column: Int32)?) {
        if Int(id) < skipped.count, skipped[Int(id)] { return }
        let node = nodes[Int(id)]
        let created = Int32(functionCount)
        let outer = current
        let saved = pending.count
        let selfPlace = node.op & 2 != 0 ? implicitSelf ?? (node.line, node.column) : nil
        buildFunction(parameters: lists[Int(node.a)..<Int(node.a + node.b)], implicitSelf: selfPlace, body: node.c)
        precondition(pending.count == saved)
        functions[Int(outer)].created.append(created)
    }

    /// `base.key = ...` as a target: fills the local at its root (`a.b.c = 1` fills `a`).
    mutating func scanTargetIndex(_ id: Int32) {
        var current = id
        while nodes[Int(current)].kind == .index {
            scan(nodes[Int(current)].b)
            current = nodes[Int(current)].a
        }
        let base = nodes[Int(current)]
        if base.kind == .name {
            let bound = inScope.binding(of: base.a)
            if bound >= 0 { noteAccess(bound, kind: .mutation, line: base.line, column: base.column) }
        } else {
            scan(current)
        }
    }

    /// Whether an expression calls something (a function expression's body aside).
    func containsCall(_ id: Int32) -> Bool {
        var work = [id]
        while let next = work.popLast() {
            let node = nodes[Int(next)]
            switch node.kind {
            case .call, .methodCall: return true
            case .index, .binary, .keyedField: work += [node.a, node.b]
            case .unary, .paren, .positionalField: work.append(node.a)
            case .table: for index in Int(node.a)..<Int(node.a + node.b) { work.append(lists[index]) }
            default: break
            }
        }
        return false
    }
}
