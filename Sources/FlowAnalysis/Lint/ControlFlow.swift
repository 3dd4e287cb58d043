import LuaSyntax

/// What luacheck's control-flow classes ask of the syntax (whether a statement ends every way
/// through it, whether a loop body always leaves): their checks are in their rule files
/// (`UnreachableCodeRule`, `LoopRunsOnceRule`, ...).
/// A parsed chunk's nodes and lists, for the control-flow questions that need nothing else.
/// The walker asks them through this small value, not through itself: a non-mutating method of
/// `ModuleLinter` gets a copy of the whole walker, retaining each of its arrays, and asking at
/// every statement cost 5% of validate's CPU on the benchmark tree (Benchmarks/README.md, lint
/// speed).
struct SyntaxView {
    var nodes: UnsafeBufferPointer<SyntaxNode>
    var lists: UnsafeBufferPointer<Int32>

    /// Whether an expression may give several values (a call, `...`): a list ending in one fills every name.
    @inline(__always) func isMultipleValued(_ id: Int32) -> Bool {
        let kind = nodes[Int(id)].kind
        return kind == .call || kind == .methodCall || kind == .vararg
    }

    /// The key of `v.key` or `v:key()` when `link` is that field access.
    @inline(__always) func fieldKey(of link: Int32) -> Int32? {
        let node = nodes[Int(link)]
        if node.kind == .index, nodes[Int(node.b)].kind == .string { return node.b }
        if node.kind == .methodCall { return lists[Int(node.b)] }
        return nil
    }

    /// Whether control never passes a statement to the next one: `return`, `break`, `goto`, a
    /// block or an `if` with `else` whose every way ends so, or a `while true` loop nothing
    /// leaves.
    func terminates(_ id: Int32) -> Bool {
        let node = nodes[Int(id)]
        switch node.kind {
        case .returnStatement, .breakStatement, .gotoStatement:
            return true
        case .doBlock:
            return blockTerminates(node.a)
        case .ifStatement:
            guard node.c >= 0, blockTerminates(node.c) else { return false }
            for pair in 0..<Int(node.b) where !blockTerminates(lists[Int(node.a) + pair * 2 + 1]) { return false }
            return true
        case .whileLoop:
            return nodes[Int(node.a)].kind == .trueLiteral && !leavesLoop(node.b)
        case .repeatLoop:
            return nodes[Int(node.b)].kind == .falseLiteral && !leavesLoop(node.a)
        default:
            return false
        }
    }

    func blockTerminates(_ block: Int32) -> Bool {
        var reachable = true
        for statement in statementsOf(block) {
            if nodes[Int(statement)].kind == .label { reachable = true }
            if reachable, terminates(statement) { reachable = false }
        }
        return !reachable
    }

    func statementsOf(_ block: Int32) -> Slice<UnsafeBufferPointer<Int32>> {
        let node = nodes[Int(block)]
        return lists[Int(node.a)..<Int(node.a + node.b)]
    }

    /// Whether a loop body may leave its loop other than by `return`: a `break` of its own (not
    /// one of a loop inside it) or any `goto`.
    func leavesLoop(_ block: Int32, depth: Int = 0) -> Bool {
        guard depth < 64 else { return true }
        for statement in statementsOf(block) {
            let node = nodes[Int(statement)]
            switch node.kind {
            case .breakStatement, .gotoStatement:
                return true
            case .doBlock:
                if leavesLoop(node.a, depth: depth + 1) { return true }
            case .ifStatement:
                for pair in 0..<Int(node.b) where leavesLoop(lists[Int(node.a) + pair * 2 + 1], depth: depth + 1) {
                    return true
                }
                if node.c >= 0, leavesLoop(node.c, depth: depth + 1) { return true }
            case .whileLoop, .repeatLoop, .numericFor, .genericFor:
                // Their breaks are their own; a goto inside may still leave both.
                if containsGoto(statement, depth: depth + 1) { return true }
            default:
                break
            }
        }
        return false
    }

    func containsGoto(_ loop: Int32, depth: Int) -> Bool {
        guard depth < 64 else { return true }
        let node = nodes[Int(loop)]
        let body: Int32
        switch node.kind {
        case .whileLoop: body = node.b
        case .repeatLoop: body = node.a
        case .numericFor: body = node.c
        case .genericFor: body = lists[Int(node.a + node.b + node.c)]
        case .doBlock: body = node.a
        default: return false
        }
        for statement in statementsOf(body) {
            let inner = nodes[Int(statement)]
            switch inner.kind {
            case .gotoStatement: return true
            case .whileLoop, .repeatLoop, .numericFor, .genericFor, .doBlock:
                if containsGoto(statement, depth: depth + 1) { return true }
            case .ifStatement:
                for pair in 0..<Int(inner.b) {
                    let branch = lists[Int(inner.a) + pair * 2 + 1]
                    if blockHasGoto(branch, depth: depth + 1) { return true }
                }
                if inner.c >= 0, blockHasGoto(inner.c, depth: depth + 1) { return true }
            default: break
            }
        }
        return false
    }

    func blockHasGoto(_ block: Int32, depth: Int) -> Bool {
        guard depth < 64 else { return true }
        for statement in statementsOf(block) {
            let node = nodes[Int(statement)]
            if node.kind == .gotoStatement { return true }
            if node.kind == .ifStatement || node.kind == .doBlock || node.kind == .whileLoop
                || node.kind == .repeatLoop || node.kind == .numericFor || node.kind == .genericFor
            {
                if node.kind == .ifStatement {
                    for pair in 0..<Int(node.b) where blockHasGoto(lists[Int(node.a) + pair * 2 + 1], depth: depth + 1)
                    {
                        return true
                    }
                    if node.c >= 0, blockHasGoto(node.c, depth: depth + 1) { return true }
                } else if containsGoto(statement, depth: depth + 1) {
                    return true
                }
            }
        }
        return false
    }

    /// Whether every way through a loop body ends in `break` or `return` (never in `goto`, never
    /// falling through to the next round).
    func alwaysLeaves(_ block: Int32, depth: Int = 0) -> Bool {
        guard depth < 64 else { return false }
        for statement in statementsOf(block) {
            let node = nodes[Int(statement)]
            switch node.kind {
            case .label, .gotoStatement:
                return false
            case .returnStatement, .breakStatement:
                return true
            case .doBlock:
                if alwaysLeaves(node.a, depth: depth + 1) { return true }
                if blockHasGoto(node.a, depth: depth + 1) { return false }
            case .ifStatement:
                var every = node.c >= 0 && alwaysLeaves(node.c, depth: depth + 1)
                for pair in 0..<Int(node.b) where every {
                    every = alwaysLeaves(lists[Int(node.a) + pair * 2 + 1], depth: depth + 1)
                }
                if every { return true }
                // A goto inside a branch may jump back into the loop's round.
                for pair in 0..<Int(node.b) where blockHasGoto(lists[Int(node.a) + pair * 2 + 1], depth: depth + 1) {
                    return false
                }
                if node.c >= 0, blockHasGoto(node.c, depth: depth + 1) { return false }
            case .whileLoop, .repeatLoop, .numericFor, .genericFor:
                if containsGoto(statement, depth: depth + 1) { return false }
            default:
                break
            }
        }
        return false
    }
}

extension ModuleLinter {
    var syntax: SyntaxView { SyntaxView(nodes: nodes, lists: lists) }

    func numeral(_ node: SyntaxNode) -> String {
        let start = Int(node.a)
        let end = min(source.count, start + Int(node.b))
        guard start < end else { return "" }
        return String(decoding: UnsafeRawBufferPointer(rebasing: source[start..<end]), as: UTF8.self)
    }
}

extension BinaryOperator {
    /// Whether a binary operator is one of the six comparisons.
    @inline(__always) static func isComparison(_ op: UInt8) -> Bool {
        op == BinaryOperator.equal.rawValue || op == BinaryOperator.notEqual.rawValue
            || op == BinaryOperator.less.rawValue || op == BinaryOperator.lessEqual.rawValue
            || op == BinaryOperator.greater.rawValue || op == BinaryOperator.greaterEqual.rawValue
    }
}
