import LuaSyntax

extension ModuleTypeCollector {
    mutating func walkBlock(_ block: NodeID, depth: Int) {
        let mark = scopeMark
        let narrowing = narrowingMark
        let statements = tree.statements(of: block)
        for statement in statements {
            applyCasts(above: tree[statement].line)
            walkStatement(statement, depth: depth, isLast: statement == statements.last)
            // `if not x then return end`: x is not nil in the rest of the block.
            if hasDeclaredLocals, leavesBlock(tree[statement]) {
                narrow(by: tree.lists[Int(tree[statement].a)], holds: false)
            }
        }
        closeNarrowing(narrowing)
        closeScope(mark)
    }

    /// `block` walked with what `conditions` (each true or false) tell of the locals' types.
    private mutating func walkBlock(_ block: NodeID, depth: Int, given conditions: [(NodeID, Bool)]) {
        guard hasDeclaredLocals else { return walkBlock(block, depth: depth) }
        let narrowing = narrowingMark
        for (condition, holds) in conditions { narrow(by: condition, holds: holds) }
        walkBlock(block, depth: depth)
        closeNarrowing(narrowing)
    }

    private mutating func walkStatement(_ id: NodeID, depth: Int, isLast: Bool) {
        let node = tree[id]
        switch node.kind {
        case .local: walkLocal(node)
        case .localFunction:
            let block = self.block(at: node.line)
            var local = Local(name: tree.text(of: node.a))
            local.signature = signature(of: node.b, block: block) ?? plainSignature(of: node.b)
            local.deprecation = block?.deprecation
            local.doc = block?.documentation ?? ""
            _ = declare(node.a, local)
            walkFunction(node.b, selfTable: nil)
        case .functionStatement: walkFunctionStatement(node)
        case .assignment: walkAssignment(node)
        case .callStatement: walkExpression(node.a)
        case .doBlock: walkBlock(node.a, depth: depth)
        case .whileLoop:
            walkExpression(node.a)
            walkBlock(node.b, depth: depth, given: [(node.a, true)])
        case .repeatLoop:
            let mark = scopeMark
            for statement in tree.statements(of: node.a) { walkStatement(statement, depth: depth, isLast: false) }
            walkExpression(node.b)
            closeScope(mark)
        case .ifStatement:
            let parts = tree.list(node.a, node.b * 2)
            // The conditions before: each false here. Without a typed local no condition narrows.
            var failed: [(NodeID, Bool)] = []
            for pair in stride(from: parts.startIndex, to: parts.endIndex, by: 2) {
                walkExpression(parts[pair])
                if hasDeclaredLocals {
                    walkBlock(parts[pair + 1], depth: depth, given: failed + [(parts[pair], true)])
                } else {
                    walkBlock(parts[pair + 1], depth: depth)
                }
                failed.append((parts[pair], false))
            }
            if node.c >= 0 { walkBlock(node.c, depth: depth, given: failed) }
        case .numericFor:
            let parts = tree.list(node.a, node.b)
            for expression in parts.dropFirst() { walkExpression(expression) }
            let mark = scopeMark
            _ = declare(parts[parts.startIndex], Local(name: tree.text(of: parts[parts.startIndex])))
            walkBlock(node.c, depth: depth)
            closeScope(mark)
        case .genericFor:
            for expression in tree.list(node.a + node.b, node.c) { walkExpression(expression) }
            let mark = scopeMark
            for name in tree.list(node.a, node.b) { _ = declare(name, Local(name: tree.text(of: name))) }
            walkBlock(tree.lists[Int(node.a + node.b + node.c)], depth: depth)
            closeScope(mark)
        case .returnStatement: walkReturn(node, isModuleResult: depth == 0 && isLast && functions.count == 1)
        default: break
        }
    }

    private mutating func walkLocal(_ node: SyntaxNode) {
        let names = tree.list(node.a, node.b)
        let values = tree.list(node.a + node.b, node.c)
        let block = self.block(at: node.line)
        var made: [(index: Int, table: Int)] = []  // few: one per constructor
        for (index, value) in values.enumerated() {
            if index < names.count, let constructor = tableConstructor(value) {
                var className = index == 0 ? block?.className : nil
                if index == 0, className == nil, case .named(let declared) = block?.declaredType {
                    className = declared  // `---@type Class` on a table: its fields are the class's
                }
                made.append((index, makeTable(constructor, className: className)))
                if tree[value].kind != .table { walkExpression(value) }
            } else {
                walkExpression(value)
            }
        }
        for (index, name) in names.enumerated() {
            let value = index < values.count ? values[values.startIndex + index] : nil
            var local = Local(name: tree.text(of: name))
            local.table = made.first { $0.index == index }?.table
            local.doc = block?.documentation ?? ""
            if index == 0 {
                local.declared = block?.declaredType ?? block?.className.map { .named($0) }
                local.deprecation = block?.deprecation
            }
            if let value {
                local.requiredModule = requiredModule(value)
                local.literal = literalType(value)
                if tree[value].kind == .function {
                    local.signature = signature(of: value, block: block) ?? plainSignature(of: value)
                }
                if let declared = local.declared, let literal = local.literal {
                    noteAssignment(declared, literal, name: local.name, at: tree[value])
                }
            }
            _ = declare(name, local)
        }
    }

    /// `{ … }` or `setmetatable({ … }, mt)`: the constructor a local's table starts as.
    func tableConstructor(_ value: NodeID) -> NodeID? {
        let node = tree[value]
        if node.kind == .table { return value }
        guard node.kind == .call, node.c >= 1, let setmetatableSymbol, tree[node.a].kind == .name,
            tree[node.a].a == setmetatableSymbol, resolve(setmetatableSymbol) == nil
        else { return nil }
        let first = tree.lists[Int(node.b)]
        return tree[first].kind == .table ? first : nil
    }

    /// A local table from its constructor: its named fields (functions with their annotations).
    mutating func makeTable(_ constructor: NodeID, className: String?) -> Int {
        var table = Table(className: className)
        tables.append(table)
        let index = tables.count - 1
        let node = tree[constructor]
        for field in tree.list(node.a, node.b) {
            let fieldNode = tree[field]
            guard fieldNode.kind == .keyedField, tree[fieldNode.a].kind == .string, tree[fieldNode.a].op == 1 else {
                walkExpression(fieldNode.kind == .keyedField ? fieldNode.b : fieldNode.a)
                continue
            }
            let name = tree.text(of: fieldNode.a)
            let block = self.block(at: fieldNode.line)
            table.fields[name] = member(name, value: fieldNode.b, block: block, at: tree[fieldNode.a])
            if tree[fieldNode.b].kind == .function {
                walkFunction(fieldNode.b, selfTable: index)
            } else {
                walkExpression(fieldNode.b)
            }
        }
        tables[index].fields.merge(table.fields) { old, _ in old }
        return index
    }

    private mutating func walkFunctionStatement(_ node: SyntaxNode) {
        let target = tree[node.a]
        let block = self.block(at: node.line)
        var selfTable: Int?
        if target.kind == .name {
            let name = tree.text(of: node.a)
            if let index = resolve(target.a) {
                locals[index].signature = signature(of: node.b, block: block) ?? plainSignature(of: node.b)
                locals[index].isReassigned = true
            } else {
                types.globals[name] = member(name, value: node.b, block: block, at: target)
            }
        } else if target.kind == .index, target.op == 1, tree[target.a].kind == .name {
            let object = tree[target.a]
            let name = tree.text(of: target.b)
            let field = member(name, value: node.b, block: block, at: tree[target.b])
            if let index = resolve(object.a) {
                if let table = locals[index].table {
                    tables[table].fields[name] = field
                    selfTable = table
                } else if case .named(let className) = locals[index].declared {
                    addClassField(className, field)
                }
            } else {
                types.globalFields[tree.text(of: target.a), default: [:]][name] = field
            }
        } else {
            walkExpression(node.a)
        }
        walkFunction(node.b, selfTable: selfTable)
    }

    mutating func walkFunction(_ function: NodeID, selfTable: Int?) {
        let node = tree[function]
        let mark = scopeMark
        let statementBlock = block(at: node.line)
        let signature = self.signature(of: function, block: statementBlock)
        if node.op & 2 != 0 {
            declareSelf(table: selfTable, className: selfTable.flatMap { tables[$0].className })
        }
        let parameters = tree.list(node.a, node.b)
        for (index, parameter) in parameters.enumerated() {
            var local = Local(name: tree.text(of: parameter))
            if let type = signature?.parameters[index].type, type != .unknown { local.declared = type }
            _ = declare(parameter, local)
        }
        functions.append(statementBlock?.declaresReturns == true ? signature : nil)
        selfTables.append(selfTable)
        walkBlock(node.c, depth: 1)
        functions.removeLast()
        selfTables.removeLast()
        closeScope(mark)
    }

    mutating func addClassField(_ className: String, _ field: TypeMember) {
        if types.classes[className] != nil {
            if types.classes[className]?.fields[field.name] == nil {
                types.classes[className]?.fields[field.name] = field
            }
        } else if types.assignedFields[className]?[field.name] == nil {
            types.assignedFields[className, default: [:]][field.name] = field
        }
    }
}
