import LuaSyntax

/// Narrowing by conditions: inside `if x then`, `while x do` and after `if not x then return end`,
/// a local's declared type loses the members the condition rules out (see `TypeNarrowing`).
/// Only locals never assigned after their declaration anywhere in the module are narrowed, so a
/// narrowed type is never stale.
extension ModuleTypeCollector {
    /// Conditions nest `and`/`or` on their left without bound: deeper ones tell nothing.
    private static let conditionDepth = 32

    /// The names assigned by `name = …` or `function name()` anywhere in the chunk, by symbol;
    /// and how many locals the chunk declares (its local names and methods' `self`s).
    static func assignedSymbols(of tree: SyntaxBuffers) -> (assigned: [Bool], localCount: Int) {
        var symbols = Array(repeating: false, count: tree.symbolCount)
        var localCount = 0
        for node in tree.nodes {
            switch node.kind {
            case .localName:
                localCount += 1
            case .function where node.op & 2 != 0:
                localCount += 1
            case .assignment:
                for target in tree.list(node.a, node.b) where tree[target].kind == .name {
                    symbols[Int(tree[target].a)] = true
                }
            case .functionStatement where tree[node.a].kind == .name:
                symbols[Int(tree[node.a].a)] = true
            default:
                break
            }
        }
        return (symbols, localCount)
    }

    /// The type a local has here: its declared type as the conditions around narrow it.
    func currentType(of local: Int) -> LuaType? {
        narrowed.isEmpty ? locals[local].declared : narrowed[local] ?? locals[local].declared
    }

    var narrowingMark: Int { narrowingUndo.count }

    mutating func closeNarrowing(_ mark: Int) {
        while narrowingUndo.count > mark {
            let (local, previous) = narrowingUndo.removeLast()
            narrowed[local] = previous
        }
    }

    /// Narrows by what is known when `condition` is true (`holds`) or false.
    mutating func narrow(by condition: NodeID, holds: Bool) {
        guard hasDeclaredLocals else { return }  // only a local with a declared type is narrowed
        for (local, fact) in facts(condition, holds: holds, depth: 0) {
            guard let type = currentType(of: local), let narrower = fact.apply(to: type) else { continue }
            narrowingUndo.append((local, narrowed[local]))
            narrowed[local] = narrower
        }
    }

    /// `---@cast x T` right above a statement: from there to the end of the block, the local `x`
    /// is a `T`; `---@cast x -?` (or `+?`) takes nil away from its type. A local assigned again
    /// anywhere is unknown from there instead: the cast may not hold after the assignment.
    mutating func applyCasts(above line: Int32) {
        guard hasBlocks, let block = block(at: line) else { return }
        for annotation in block.annotations {
            guard case .cast(let name, let type) = annotation.kind, let symbol = tree.symbol(named: name),
                let local = resolve(symbol)
            else { continue }
            var cast = type
            if assignedSymbols[Int(symbol)] {
                cast = .unknown
            } else if type == .unknown {
                guard let current = currentType(of: local), let narrower = TypeNarrowing.notNil.apply(to: current)
                else { continue }
                cast = narrower
            }
            narrowingUndo.append((local, narrowed[local]))
            narrowed[local] = cast
        }
    }

    /// `if c then … return end` with no other branch: what follows runs only when `c` is false.
    func leavesBlock(_ node: SyntaxNode) -> Bool {
        guard node.kind == .ifStatement, node.b == 1, node.c < 0 else { return false }
        let body = tree.lists[Int(node.a) + 1]
        guard let last = tree.statements(of: body).last else { return false }
        let statement = tree[last]
        if statement.kind == .returnStatement { return true }
        guard statement.kind == .callStatement, tree[statement.a].kind == .call else { return false }
        let callee = tree[tree[statement.a].a]
        return callee.kind == .name && tree.text(of: tree[statement.a].a) == "error" && resolve(callee.a) == nil
    }

    private func facts(_ id: NodeID, holds: Bool, depth: Int) -> [(Int, TypeNarrowing)] {
        guard depth < Self.conditionDepth else { return [] }
        let node = tree[id]
        switch node.kind {
        case .paren:
            return facts(node.a, holds: holds, depth: depth + 1)
        case .name:
            guard holds, let local = narrowable(id) else { return [] }
            return [(local, .truthy)]
        case .unary where UnaryOperator(rawValue: node.op) == .not:
            return facts(node.a, holds: !holds, depth: depth + 1)
        case .binary:
            switch BinaryOperator(rawValue: node.op) {
            case .and where holds, .or where !holds:
                return facts(node.a, holds: holds, depth: depth + 1) + facts(node.b, holds: holds, depth: depth + 1)
            case .equal: return comparison(node, equal: holds)
            case .notEqual: return comparison(node, equal: !holds)
            default: return []
            }
        default:
            return []
        }
    }

    /// `x == nil`, `x ~= nil`, `type(x) == "kind"` (either side), known to be `equal` or not.
    private func comparison(_ node: SyntaxNode, equal: Bool) -> [(Int, TypeNarrowing)] {
        for (left, right) in [(node.a, node.b), (node.b, node.a)] {
            if tree[right].kind == .nilLiteral, let local = narrowable(left) {
                return equal ? [] : [(local, .notNil)]
            }
            if tree[right].kind == .string, tree[right].op == 0, let local = typeCallArgument(left) {
                let kind = tree.text(of: right)
                return [(local, equal ? .kind(kind) : .notKind(kind))]
            }
        }
        return []
    }

    /// The local of `type(x)` (the global `type`).
    private func typeCallArgument(_ id: NodeID) -> Int? {
        let node = tree[id]
        guard node.kind == .call, node.c == 1, tree[node.a].kind == .name, tree.text(of: node.a) == "type",
            resolve(tree[node.a].a) == nil
        else { return nil }
        return narrowable(tree.lists[Int(node.b)])
    }

    /// The local a name refers to, when it has a declared type and is never assigned again.
    private func narrowable(_ id: NodeID) -> Int? {
        let node = tree[id]
        guard node.kind == .name, !assignedSymbols[Int(node.a)], let local = resolve(node.a),
            locals[local].declared != nil
        else { return nil }
        return local
    }
}
