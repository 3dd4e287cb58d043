import LuaSyntax

/// The linter's hooks on the one walk (`SyntaxVisitor`): each node is handed to the rules that
/// visit its kind, then noted for the variables' lives; scopes and functions open and close.
extension ModuleLinter {
    mutating func visit(_ id: Int32, _ node: SyntaxNode) -> SyntaxVisitorContinueKind {
        if let tested = pendingTested.last, tested == id {
            pendingTested.removeLast()
            testedEnds.append(lastVisited(under: id))
        }
        LintRuleList.visit(id, node, in: &self)
        // A tested operand's walk ends at its last node (a function's, after its body).
        if node.kind != .function { leaveTested(at: id) }
        switch node.kind {
        case .name:
            if id == fieldBase {
                fieldBase = -1
            } else {
                read(node.a)
            }
        case .vararg:
            frames[frames.count - 1].usesVararg = true
        case .index:
            if nodes[Int(node.b)].kind == .string { noteFieldRead(id, base: node.a, key: node.b, isMethodCall: false) }
        case .methodCall:
            noteCall(id)
            noteFieldRead(id, base: node.a, key: lists[Int(node.b)], isMethodCall: true)
        case .call:
            noteCall(id)
        case .binary:
            if node.op == BinaryOperator.and.rawValue || node.op == BinaryOperator.or.rawValue {
                pendingTested.append(node.b)
                if nodes[Int(node.a)].kind == .index { testedLeftOperand = node.a }
            }
        case .function:
            enterFunction(id, node)
        default:
            return visitStatement(id, node)
        }
        return .visitChildren
    }

    /// No post-visit of expressions: a tested operand's end is known from its last node.
    static var visitsExpressionsAfterChildren: Bool { false }

    mutating func visitPost(_ id: Int32, _ node: SyntaxNode) {
        switch node.kind {
        case .function:
            leaveTested(at: id)
            finishFunction()
        case .localName:
            noteDeclaredValue(node)
        case .localFunction:
            variables[Int(scopes.binding(of: nodes[Int(node.a)].a))].insideOwnBody = false
        default:
            break
        }
    }

    /// Ends the tested operands whose walk ends at `id` (nested ones may end at the same node).
    @inline(__always) mutating func leaveTested(at id: Int32) {
        while let end = testedEnds.last, end == id { testedEnds.removeLast() }
    }

    mutating func scopeOpens() {
        enclosingScopes.append(scope)
        scopeCount += 1
        scope = scopeCount
    }

    mutating func scopeCloses() {
        scope = enclosingScopes.removeLast()
    }

    /// Judges each variable when its scope ends: every use of it lies within that scope.
    mutating func scopeEnds(for declaration: Int32) {
        let variable = variables[Int(declaration)]
        judgeUse(of: variable)
        noteEscape(of: variable)
    }

    /// `v.key` or `v:key()` on a local `v`: a use of v that does not open it (`readField`).
    mutating func noteFieldRead(_ id: Int32, base: Int32, key: Int32, isMethodCall: Bool) {
        let object = nodes[Int(base)]
        guard object.kind == .name, scopes.binding(of: object.a) >= 0 else { return }
        readField(base, key: key, isMethodCall: isMethodCall)
        fieldBase = base
    }

    // MARK: Functions

    /// A function's frame, before its parameters are declared.
    mutating func enterFunction(_ id: Int32, _ node: SyntaxNode) {
        functionCount += 1
        functionNodes.append(id)
        functionParents.append(currentFunction)
        var frame = FunctionFrame(id: functionCount)
        if node.op & 1 != 0, let place = varargPlace(of: node) {
            frame.takesVararg = true
            frame.varargLine = place.line
            frame.varargColumn = place.column
        }
        frames.append(frame)
        let parameters = Int(node.a)..<Int(node.a + node.b)
        for index in parameters.reversed() {
            pending.append(PendingDeclaration(name: lists[index], kind: .argument, hasValue: true))
        }
    }

    /// A method's `self`, declared at the `:` of `function a:b()`.
    mutating func implicitSelf(of function: Int32) -> Int32? {
        let node = nodes[Int(function)]
        let place = function == methodFunction ? colonPlace : (node.line, node.column)
        return newVariable(selfSymbol, kind: .implicitSelf, line: place.0, column: place.1, hasValue: true)
    }

    /// Where `...` stands in a function's parameter list: after its last named parameter, or
    /// after the `(` that opens the list.
    mutating func varargPlace(of function: SyntaxNode) -> (line: Int32, column: Int32)? {
        var offset: Int
        if function.b > 0 {
            let last = nodes[Int(lists[Int(function.a + function.b - 1)])]
            offset = self.offset(line: last.line, column: last.column)
        } else {
            offset = self.offset(line: function.line, column: function.column)
        }
        let end = min(source.count - 2, offset + 4096)
        while offset < end {
            if byte(at: offset) == UInt8(ascii: "."), byte(at: offset + 1) == UInt8(ascii: "."),
                byte(at: offset + 2) == UInt8(ascii: ".")
            {
                return place(of: offset)
            }
            offset += 1
        }
        return nil
    }

    mutating func finishFunction() {
        let frame = frames.removeLast()
        LintRuleList.functionEnds(frame, in: &self)
    }
}
