import LuaSyntax

/// The walk over statements and blocks.
extension ModuleLinter {
    // MARK: Statements

    /// A block in a scope of its own.
    mutating func block(_ id: Int32) {
        let parent = scope
        let mark = enterScope()
        statements(of: id)
        leaveScope(to: mark, parent: parent)
    }

    mutating func statements(of id: Int32) {
        let node = nodes[Int(id)]
        var unreachable = false
        var reported = false
        for index in Int(node.a)..<Int(node.a + node.b) {
            let statement = lists[index]
            if nodes[Int(statement)].kind == .label {
                unreachable = false
            } else if unreachable, !reported {
                reported = true
                facts.findings.append(
                    UnreachableCodeRule.finding(line: nodes[Int(statement)].line, column: nodes[Int(statement)].column))
            }
            self.statement(statement)
            if !unreachable, syntax.terminates(statement) { unreachable = true }
        }
    }

    mutating func statement(_ id: Int32) {
        let node = nodes[Int(id)]
        switch node.kind {
        case .local:
            localStatement(node)
        case .assignment:
            let targets = Int(node.a)..<Int(node.a + node.b)
            let values = targets.upperBound..<(targets.upperBound + Int(node.c))
            for index in values { expression(lists[index]) }
            for index in targets { assign(to: lists[index]) }
            noteFieldFunctions(node)
            checkBalance(node, lastValue: lists[values.upperBound - 1])
        case .callStatement:
            expression(node.a)
        case .doBlock:
            if nodes[Int(node.a)].b == 0 {
                facts.findings.append(EmptyDoBlockRule.finding(line: node.line, column: node.column))
            }
            block(node.a)
        case .whileLoop:
            testedExpression(node.a)
            checkLoopRunsOnce(node, body: node.b)
            block(node.b)
        case .repeatLoop:
            repeatLoop(node)
        case .ifStatement:
            ifStatement(node)
        case .numericFor:
            numericFor(node)
        case .genericFor:
            genericFor(node)
        case .functionStatement:
            assignFunctionTarget(node.a)
            noteFieldFunction(target: node.a, function: node.b)
            function(node.b, implicitSelfAt: methodColon(of: node.a))
        case .localFunction:
            localFunction(node)
        case .returnStatement:
            returnStatement(node)
        case .gotoStatement:
            frames[frames.count - 1].gotos.insert(node.a)
        case .label:
            frames[frames.count - 1].labels.append((node.a, node.line, node.column))
        default:
            break
        }
    }

    /// `local names = values`: the values first, then each name declared, with what its value tells.
    mutating func localStatement(_ node: SyntaxNode) {
        let names = Int(node.a)..<Int(node.a + node.b)
        let values = names.upperBound..<(names.upperBound + Int(node.c))
        for index in values { expression(lists[index]) }
        if node.c > node.b {
            facts.findings.append(AssignmentTooManyValuesRule.finding(line: node.line, column: node.column))
        }
        let multiple = node.c > 0 && syntax.isMultipleValued(lists[values.upperBound - 1])
        let group = node.b > 1 && multiple && node.c < node.b ? Int32(variables.count) : -1
        for (position, index) in names.enumerated() {
            let name = nodes[Int(lists[index])]
            let hasValue = position < Int(node.c) || multiple
            let variable = declare(name.a, kind: .local, line: name.line, column: name.column, hasValue: hasValue)
            variables[Int(variable)].group = group
            variables[Int(variable)].groupCount = group >= 0 ? node.b : 0
            variables[Int(variable)].holdsNewTable =
                position < Int(node.c) && nodes[Int(lists[values.lowerBound + position])].kind == .table
            if position < Int(node.c) {
                noteModuleValue(of: variable, value: lists[values.lowerBound + position])
                noteFunctionValue(of: variable, value: lists[values.lowerBound + position])
            }
        }
    }

    /// `repeat body until c`: the condition sees the body's locals.
    mutating func repeatLoop(_ node: SyntaxNode) {
        // The condition sees the body's locals.
        checkLoopRunsOnce(node, body: node.a)
        let parent = scope
        let mark = enterScope()
        statements(of: node.a)
        expression(node.b)
        leaveScope(to: mark, parent: parent)
    }

    /// `if`: each condition tested, each branch a block (an empty one, or one under `if false`, found).
    mutating func ifStatement(_ node: SyntaxNode) {
        for pair in 0..<Int(node.b) {
            let condition = nodes[Int(lists[Int(node.a) + pair * 2])]
            testedExpression(lists[Int(node.a) + pair * 2])
            let body = lists[Int(node.a) + pair * 2 + 1]
            checkEmptyBranch(body, keyword: "then")
            // `if false then ... end`: its code never runs.
            if condition.kind == .falseLiteral || condition.kind == .nilLiteral,
                let first = syntax.statementsOf(body).first
            {
                facts.findings.append(
                    UnreachableCodeRule.finding(line: nodes[Int(first)].line, column: nodes[Int(first)].column))
            }
            block(body)
        }
        if node.c >= 0 {
            checkEmptyBranch(node.c, keyword: "else")
            block(node.c)
        }
    }

    /// `for v = start, limit[, step]`: the loop variable in the body's scope.
    mutating func numericFor(_ node: SyntaxNode) {
        for index in Int(node.a + 1)..<Int(node.a + node.b) { expression(lists[index]) }
        checkReverseLoop(node)
        checkLoopRunsOnce(node, body: node.c)
        let parent = scope
        let mark = enterScope()
        let name = nodes[Int(lists[Int(node.a)])]
        declare(name.a, kind: .loop, line: name.line, column: name.column, hasValue: true)
        statements(of: node.c)
        leaveScope(to: mark, parent: parent)
    }

    /// `for names in exprs`: the loop variables in the body's scope.
    mutating func genericFor(_ node: SyntaxNode) {
        let names = Int(node.a)..<Int(node.a + node.b)
        let expressions = names.upperBound..<(names.upperBound + Int(node.c))
        for index in expressions { expression(lists[index]) }
        let body = lists[expressions.upperBound]
        checkLoopRunsOnce(node, body: body)
        let parent = scope
        let mark = enterScope()
        for index in names {
            let name = nodes[Int(lists[index])]
            declare(name.a, kind: .loop, line: name.line, column: name.column, hasValue: true)
        }
        statements(of: body)
        leaveScope(to: mark, parent: parent)
    }

    /// `local function f() end`: declared before its body, which may call it.
    mutating func localFunction(_ node: SyntaxNode) {
        let name = nodes[Int(node.a)]
        let variable = declare(name.a, kind: .function, line: name.line, column: name.column, hasValue: true)
        variables[Int(variable)].insideOwnBody = true
        noteFunctionValue(of: variable, value: node.b)
        function(node.b)
        variables[Int(variable)].insideOwnBody = false
    }

    /// `return values`; the main chunk's `return M` notes the module's table.
    mutating func returnStatement(_ node: SyntaxNode) {
        if frames.count == 1, node.b == 1 {
            noteModuleReturn(lists[Int(node.a)])
            let value = nodes[Int(lists[Int(node.a)])]
            if value.kind == .name, inScope.binding(of: value.a) >= 0 {
                // Returning the module's table is no use that opens it.
                let bound = inScope.binding(of: value.a)
                let saved = variables[Int(bound)].readWhole
                read(value.a)
                variables[Int(bound)].readWhole = saved
                return
            }
        }
        for index in Int(node.a)..<Int(node.a + node.b) { expression(lists[index]) }
    }

    /// An expression whose value is tested (a condition): a library field of another Lua version it reads is fine.
    mutating func testedExpression(_ id: Int32) {
        let saved = isTesting
        isTesting = true
        expression(id)
        isTesting = saved
    }
}
