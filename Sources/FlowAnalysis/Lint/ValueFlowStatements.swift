import LuaSyntax

/// The items of each statement, as luacheck lays them out: a statement's reads come before its
/// sets; `if`, loops, `break`, `goto` and `return` become jumps.
extension ValueFlow {
    mutating func block(_ id: Int32) {
        enterScope()
        statements(of: id)
        leaveScope()
    }

    mutating func statements(of id: Int32) {
        let node = nodes[Int(id)]
        for index in Int(node.a)..<Int(node.a + node.b) { statement(lists[index]) }
    }

    mutating func statement(_ id: Int32) {
        let node = nodes[Int(id)]
        switch node.kind {
        case .local:
            localStatement(node)
        case .assignment:
            assignment(node)
        case .callStatement:
            evaluate(node.a)
        case .doBlock:
            _ = emit(.noop)
            block(node.a)
        case .whileLoop:
            whileLoop(node)
        case .repeatLoop:
            repeatLoop(node)
        case .ifStatement:
            ifStatement(node)
        case .numericFor:
            _ = emit(.noop)
            for index in Int(node.a + 1)..<Int(node.a + node.b) { evaluate(lists[index]) }
            loop(names: lists[Int(node.a)..<Int(node.a + 1)], body: node.c)
        case .genericFor:
            _ = emit(.noop)
            let names = Int(node.a)..<Int(node.a + node.b)
            let expressions = names.upperBound..<(names.upperBound + Int(node.c))
            for index in expressions { evaluate(lists[index]) }
            loop(names: lists[names], body: lists[expressions.upperBound])
        case .functionStatement:
            functionStatement(node)
        case .localFunction:
            localFunction(node)
        case .returnStatement:
            _ = emit(.noop)
            for index in Int(node.a)..<Int(node.a + node.b) { evaluate(lists[index]) }
            _ = emit(.jump, target: Int32.max)
        case .breakStatement:
            let jump = emit(.jump)
            if !breaks.isEmpty { breaks[breaks.count - 1].append(jump) } else { patch(jump, to: Int32.max) }
        case .gotoStatement:
            _ = emit(.noop)
            let jump = emit(.jump, target: Int32.max)
            scopes[scopes.count - 1].gotos.append((node.a, jump))
        case .label:
            scopes[scopes.count - 1].labels.append((node.a, nextIndex))
        default:
            break
        }
    }

    /// `local names = values`: the values are read, then the names declared and set, in one item.
    mutating func localStatement(_ node: SyntaxNode) {
        let names = Int(node.a)..<Int(node.a + node.b)
        let values = names.upperBound..<(names.upperBound + Int(node.c))
        let item = beginItem(.local)
        for index in values { scan(lists[index]) }
        let unpacking = node.c > 0 && isUnpacking(lists[values.upperBound - 1]) ? lists[values.upperBound - 1] : -1
        for (position, index) in names.enumerated() {
            let name = nodes[Int(lists[index])]
            let value = position < Int(node.c) ? lists[values.lowerBound + position] : unpacking
            let variable = declare(
                name.a, kind: .local, line: name.line, column: name.column, item: item, node: value,
                empty: value < 0)
            appendSet(variable, line: name.line, column: name.column)
        }
        endItem(item)
    }

    /// `targets = values`: the values are read, then the targets set, in one item.
    mutating func assignment(_ node: SyntaxNode) {
        let targets = Int(node.a)..<Int(node.a + node.b)
        let values = targets.upperBound..<(targets.upperBound + Int(node.c))
        let item = beginItem(.set)
        for index in values { scan(lists[index]) }
        let unpacking = node.c > 0 && isUnpacking(lists[values.upperBound - 1]) ? lists[values.upperBound - 1] : -1
        let firstValue = Int32(self.values.count)
        for (position, index) in targets.enumerated() {
            let value = position < Int(node.c) ? lists[values.lowerBound + position] : unpacking
            assign(to: lists[index], value: value, item: item)
        }
        markReplacedValues(from: firstValue)
        let first = nodes[Int(lists[targets.lowerBound])]
        if first.kind == .index, nodes[Int(first.a)].kind == .name, inScope.binding(of: nodes[Int(first.a)].a) >= 0,
            !containsCall(lists[targets.lowerBound]), !containsCall(lists[values.lowerBound])
        {
            functions[Int(current)].items[Int(item)].circular = inScope.binding(of: nodes[Int(first.a)].a)
        }
        endItem(item)
    }

    /// `while c do body end`: the condition, a jump out, the body, a jump back.
    mutating func whileLoop(_ node: SyntaxNode) {
        _ = emit(.noop)
        enterScope()
        let start = nextIndex
        evaluate(node.a)
        let exit = jumpUnless(node.a)
        breaks.append([])
        block(node.b)
        _ = emit(.noop)
        _ = emit(.jump, target: start)
        finishLoop(exit: exit)
        leaveScope()
    }

    /// `repeat body until c`: the condition sees the body's locals; a jump back unless it holds.
    mutating func repeatLoop(_ node: SyntaxNode) {
        _ = emit(.noop)
        enterScope()
        let start = nextIndex
        breaks.append([])
        enterScope()
        statements(of: node.a)
        evaluate(node.b)
        leaveScope()
        if let back = jumpUnless(node.b) { patch(back, to: start) }
        finishLoop(exit: nil)
        leaveScope()
    }

    /// `if`: each condition a jump past its block, each block a jump to the end.
    mutating func ifStatement(_ node: SyntaxNode) {
        _ = emit(.noop)
        enterScope()
        let mark = pendingEnds.count
        for pair in 0..<Int(node.b) {
            enterScope()
            let condition = lists[Int(node.a) + pair * 2]
            evaluate(condition)
            let skip = jumpUnless(condition)
            block(lists[Int(node.a) + pair * 2 + 1])
            pendingEnds.append(emit(.jump))
            if let skip { patch(skip, to: nextIndex) }
            leaveScope()
        }
        if node.c >= 0 { block(node.c) }
        while pendingEnds.count > mark { patch(pendingEnds.removeLast(), to: nextIndex) }
        leaveScope()
    }

    /// `function target() end`: the closure, then the set of its target.
    mutating func functionStatement(_ node: SyntaxNode) {
        let item = beginItem(.set)
        let target = nodes[Int(node.a)]
        closure(node.b, implicitSelf: nil)
        if target.kind == .name {
            assign(to: node.a, value: node.b, item: item)
        } else if target.kind == .index {
            scanTargetIndex(node.a)
            if nodes[Int(target.a)].kind == .name, inScope.binding(of: nodes[Int(target.a)].a) >= 0 {
                functions[Int(current)].items[Int(item)].circular = inScope.binding(of: nodes[Int(target.a)].a)
            }
        }
        endItem(item)
    }

    /// `local function f() end`: declared before its body, which may call it.
    mutating func localFunction(_ node: SyntaxNode) {
        let name = nodes[Int(node.a)]
        let item = nextIndex
        let variable = declare(name.a, kind: .local, line: name.line, column: name.column, item: item, node: node.b)
        _ = beginItem(.local)
        appendSet(variable, line: name.line, column: name.column)
        closure(node.b, implicitSelf: nil)
        endItem(item)
    }

    /// A `for` loop's rounds: a jump out, the loop variables' values, the body, a jump back.
    mutating func loop(names: Slice<UnsafeBufferPointer<Int32>>, body: Int32) {
        enterScope()
        let start = nextIndex
        let exit = emit(.conditionalJump)
        breaks.append([])
        enterScope()
        let item = beginItem(.local)
        for name in names {
            let node = nodes[Int(name)]
            let variable = declare(node.a, kind: .loop, line: node.line, column: node.column, item: item, node: -1)
            appendSet(variable, line: node.line, column: node.column)
        }
        endItem(item)
        statements(of: body)
        leaveScope()
        _ = emit(.noop)
        _ = emit(.jump, target: start)
        finishLoop(exit: exit)
        leaveScope()
    }

    /// Sends the loop's exit and its breaks to the item after it.
    mutating func finishLoop(exit: Int32?) {
        let end = nextIndex
        if let exit { patch(exit, to: end) }
        for jump in breaks.removeLast() { patch(jump, to: end) }
    }

    /// `target = value` in an assignment (`value` -1: none, the target gets nil).
    mutating func assign(to target: Int32, value: Int32, item: Int32) {
        let node = nodes[Int(target)]
        switch node.kind {
        case .name:
            let bound = inScope.binding(of: node.a)
            guard bound >= 0 else { return }
            if variables[Int(bound)].function == current {
                addValue(
                    of: bound, item: item, line: node.line, column: node.column, node: value, initial: false,
                    empty: false)
                appendSet(bound, line: node.line, column: node.column)
            } else {
                noteAccess(bound, kind: .set, line: node.line, column: node.column)
            }
        case .index:
            scanTargetIndex(target)
        default:
            scan(target)
        }
    }

    /// `x, x = 1, 2`: the first value of x is replaced by the second at once.
    mutating func markReplacedValues(from first: Int32) {
        guard Int(first) + 1 < self.values.count else { return }
        for earlier in Int(first)..<(self.values.count - 1) {
            if let later = ((earlier + 1)..<self.values.count).first(where: {
                self.values[$0].variable == self.values[earlier].variable
            }) {
                self.values[earlier].replacedAt = self.values[later].line
            }
        }
    }

    /// The set of a variable's latest value, in the current item.
    mutating func appendSet(_ variable: Int32, line: Int32, column: Int32) {
        let value = variables[Int(variable)].lastValue
        functions[Int(current)].actions.append(
            Action(kind: .set, variable: variable, value: value, line: line, column: column))
    }

    func isUnpacking(_ id: Int32) -> Bool {
        let kind = nodes[Int(id)].kind
        return kind == .call || kind == .methodCall || kind == .vararg
    }
}
