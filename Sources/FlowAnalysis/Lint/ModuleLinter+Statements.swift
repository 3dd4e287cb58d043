import LuaSyntax

/// Statements on the walk: what each declares (pushed as `PendingDeclaration`s, taken when the
/// walk declares them), what it tests, and the statements whose parts the linter walks itself
/// (assignments and function statements, whose targets are set rather than read).
extension ModuleLinter {
    mutating func visitStatement(_ id: Int32, _ node: SyntaxNode) -> SyntaxVisitorContinueKind {
        switch node.kind {
        case .local:
            pushLocalNames(node)
        case .assignment:
            assignment(node)
            return .skipChildren
        case .whileLoop:
            pendingTested.append(node.a)
        case .ifStatement:
            for pair in (0..<Int(node.b)).reversed() { pendingTested.append(lists[Int(node.a) + pair * 2]) }
        case .numericFor:
            pending.append(PendingDeclaration(name: lists[Int(node.a)], kind: .loop, hasValue: true))
        case .genericFor:
            for index in (Int(node.a)..<Int(node.a + node.b)).reversed() {
                pending.append(PendingDeclaration(name: lists[index], kind: .loop, hasValue: true))
            }
        case .functionStatement:
            assignFunctionTarget(node.a)
            noteFieldFunction(target: node.a, function: node.b)
            if let colon = methodColon(of: node.a) {
                methodFunction = node.b
                colonPlace = colon
            }
            walk(node.b)
            return .skipChildren
        case .localFunction:
            pending.append(PendingDeclaration(name: node.a, kind: .function, hasValue: true, value: node.b))
        case .returnStatement:
            return returnStatement(node)
        case .gotoStatement:
            frames[frames.count - 1].gotos.insert(node.a)
        case .label:
            frames[frames.count - 1].labels.append((node.a, node.line, node.column))
        default:
            break
        }
        return .visitChildren
    }

    /// `local names = values`: each name declared, after the values, with what its value tells.
    mutating func pushLocalNames(_ node: SyntaxNode) {
        let names = Int(node.a)..<Int(node.a + node.b)
        let values = names.upperBound..<(names.upperBound + Int(node.c))
        let multiple = node.c > 0 && syntax.isMultipleValued(lists[values.upperBound - 1])
        let grouped = node.b > 1 && multiple && node.c < node.b
        for (position, index) in names.enumerated().reversed() {
            pending.append(
                PendingDeclaration(
                    name: lists[index], kind: .local, hasValue: position < Int(node.c) || multiple,
                    value: position < Int(node.c) ? lists[values.lowerBound + position] : -1, grouped: grouped,
                    groupCount: node.b, first: position == 0))
        }
    }

    /// The variable a `localName` node declares: the pending declaration its statement pushed.
    mutating func declaration(of localName: Int32, _ node: SyntaxNode) -> Int32 {
        let declaration = pending.removeLast()
        let variable = newVariable(
            node.a, kind: declaration.kind, line: node.line, column: node.column, hasValue: declaration.hasValue)
        if declaration.first { groupStart = declaration.grouped ? variable : -1 }
        if declaration.kind == .local {
            variables[Int(variable)].group = groupStart
            variables[Int(variable)].groupCount = groupStart >= 0 ? declaration.groupCount : 0
            variables[Int(variable)].holdsNewTable =
                declaration.value >= 0 && nodes[Int(declaration.value)].kind == .table
        }
        pending.append(declaration)  // taken again once the name is in scope (`noteDeclaredValue`)
        return variable
    }

    /// Once a declared name is in scope: what its value tells (a module, a function).
    mutating func noteDeclaredValue(_ name: SyntaxNode) {
        let declaration = pending.removeLast()
        let variable = scopes.binding(of: name.a)
        switch declaration.kind {
        case .local where declaration.value >= 0:
            noteModuleValue(of: variable, value: declaration.value)
            noteFunctionValue(of: variable, value: declaration.value)
        case .function:
            variables[Int(variable)].insideOwnBody = true
            noteFunctionValue(of: variable, value: declaration.value)
        default:
            break
        }
    }

    /// `targets = values`: the values read, then each target set.
    mutating func assignment(_ node: SyntaxNode) {
        let targets = Int(node.a)..<Int(node.a + node.b)
        let values = targets.upperBound..<(targets.upperBound + Int(node.c))
        for index in values { walk(lists[index]) }
        for index in targets { assign(to: lists[index]) }
        noteFieldFunctions(node)
    }

    /// `return values`; the main chunk's `return M` notes the module's table.
    mutating func returnStatement(_ node: SyntaxNode) -> SyntaxVisitorContinueKind {
        guard frames.count == 1, node.b == 1 else { return .visitChildren }
        noteModuleReturn(lists[Int(node.a)])
        let value = nodes[Int(lists[Int(node.a)])]
        guard value.kind == .name, scopes.binding(of: value.a) >= 0 else { return .visitChildren }
        // Returning the module's table is no use that opens it.
        let bound = scopes.binding(of: value.a)
        let saved = variables[Int(bound)].readWhole
        read(value.a)
        variables[Int(bound)].readWhole = saved
        return .skipChildren
    }
}
