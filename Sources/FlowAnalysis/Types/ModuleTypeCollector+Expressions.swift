import LuaSyntax

extension ModuleTypeCollector {
    mutating func walkAssignment(_ node: SyntaxNode) {
        let targets = tree.list(node.a, node.b)
        let values = tree.list(node.a + node.b, node.c)
        let block = self.block(at: node.line)
        for (index, value) in values.enumerated() where tree[value].kind != .function {
            // `M.defaults = { … }` under `---@class LazyConfig`: the constructor's keys are the class's fields.
            if index == 0, let className = block?.className, let constructor = tableConstructor(value) {
                _ = makeTable(constructor, className: className)
                if tree[value].kind != .table { walkExpression(value) }
                continue
            }
            walkExpression(value)
        }
        for (index, target) in targets.enumerated() {
            let value = index < values.count ? values[values.startIndex + index] : nil
            let targetNode = tree[target]
            if targetNode.kind == .name {
                if let local = resolve(targetNode.a) {
                    locals[local].isReassigned = true
                    if let declared = locals[local].declared, let value, let literal = literalType(value) {
                        noteAssignment(declared, literal, name: locals[local].name, at: tree[value])
                    }
                } else if block != nil || value.map({ tree[$0].kind == .function }) == true {
                    let name = tree.text(of: target)
                    types.globals[name] = member(name, value: value, block: block, at: targetNode)
                }
            } else if targetNode.kind == .index, targetNode.op == 1, tree[targetNode.a].kind == .name {
                let name = tree.text(of: targetNode.b)
                let field = member(name, value: value, block: block, at: tree[targetNode.b])
                if let local = resolve(tree[targetNode.a].a) {
                    if let table = locals[local].table {
                        if tables[table].fields[name] == nil || value.map({ tree[$0].kind == .function }) == true {
                            tables[table].fields[name] = field
                        }
                    } else if case .named(let className) = locals[local].declared {
                        addClassField(className, field)
                    }
                } else if types.isMeta {
                    types.globalFields[tree.text(of: targetNode.a), default: [:]][name] = field
                }
            } else if targetNode.kind == .index {
                // A write: its object and key are read, the field is not.
                walkExpression(targetNode.a)
                if targetNode.op != 1 { walkExpression(targetNode.b) }
            } else {
                walkExpression(target)
            }
        }
        for value in values where tree[value].kind == .function {
            var selfTable: Int?
            if let target = targets.first, tree[target].kind == .index, tree[tree[target].a].kind == .name,
                let local = resolve(tree[tree[target].a].a)
            {
                selfTable = locals[local].table
            }
            walkFunction(value, selfTable: selfTable)
        }
    }

    mutating func walkReturn(_ node: SyntaxNode, isModuleResult: Bool) {
        let values = tree.list(node.a, node.b)
        if isModuleResult, values.count == 1 {
            let value = tree[values[values.startIndex]]
            if value.kind == .name, let local = resolve(value.a), let table = locals[local].table {
                types.returnsTable = true
                types.exports = tables[table].fields
                types.exportClass = tables[table].className
            } else if value.kind == .table, let className = block(at: node.line)?.className {
                let index = makeTable(values[values.startIndex], className: className)
                types.returnsTable = true
                types.exports = tables[index].fields
                types.exportClass = className
                return
            } else if value.kind == .table {
                let index = makeTableForReturn(values[values.startIndex])
                types.returnsTable = true
                types.exports = tables[index].fields
                return
            }
        }
        for value in values { walkExpression(value) }
        guard let signature = functions.last ?? nil, !signature.returnsVariadic else { return }
        checkReturnCount(values, signature: signature, at: node)
    }

    private mutating func makeTableForReturn(_ constructor: NodeID) -> Int {
        tables.append(Table())
        let index = tables.count - 1
        let node = tree[constructor]
        for field in tree.list(node.a, node.b) {
            let fieldNode = tree[field]
            guard fieldNode.kind == .keyedField, tree[fieldNode.a].kind == .string, tree[fieldNode.a].op == 1 else {
                walkExpression(fieldNode.kind == .keyedField ? fieldNode.b : fieldNode.a)
                continue
            }
            let name = tree.text(of: fieldNode.a)
            tables[index].fields[name] = member(
                name, value: fieldNode.b, block: block(at: fieldNode.line), at: tree[fieldNode.a])
            if tree[fieldNode.b].kind == .function {
                walkFunction(fieldNode.b, selfTable: index)
            } else {
                walkExpression(fieldNode.b)
            }
        }
        return index
    }

    /// `return a, b, c` against `---@return`: more values than declared, or fewer than required.
    private mutating func checkReturnCount(
        _ values: Slice<UnsafeBufferPointer<NodeID>>, signature: FunctionType, at node: SyntaxNode
    ) {
        let expands = values.last.map { [.call, .methodCall, .vararg].contains(tree[$0].kind) } ?? false
        let certain = expands ? values.count - 1 : values.count
        let declared = signature.returns.count
        if certain > declared {
            let extra = tree[values[values.startIndex + declared]]
            types.findings.append(
                TypeFinding(
                    kind: .tooManyReturns, line: Int(extra.line), column: Int(extra.column),
                    message: "returns \(values.count) values, but ---@return declares \(declared)"))
        } else if !expands {
            let required = signature.returns.lastIndex { !$0.type.acceptsNil }.map { $0 + 1 } ?? 0
            guard certain < required else { return }
            types.findings.append(
                TypeFinding(
                    kind: .tooFewReturns, line: Int(node.line), column: Int(node.column),
                    message: "returns \(certain) value\(certain == 1 ? "" : "s"), but ---@return declares \(required)"
                        + " that cannot be nil",
                    hint:
                        "return the missing value\(required - certain == 1 ? "" : "s"), or mark the type optional (T?)")
            )
        }
    }

    mutating func noteAssignment(_ declared: LuaType, _ literal: LuaType, name: String, at node: SyntaxNode) {
        types.typedAssignments.append(
            ModuleTypes.TypedAssignment(
                declared: declared, value: literal, name: name, line: Int(node.line), column: Int(node.column)))
    }

    // MARK: Expressions

    /// The type of a literal expression, or nil when it is not one.
    func literalType(_ id: NodeID) -> LuaType? {
        let node = tree[id]
        switch node.kind {
        case .nilLiteral: return .nil
        case .trueLiteral: return .literal("true")
        case .falseLiteral: return .literal("false")
        case .number: return .literal(numeral(id))
        case .string: return .literal("\"" + tree.text(of: id) + "\"")
        case .table: return .table
        case .function: return .function(nil)
        case .paren: return literalType(node.a)
        case .binary:
            switch BinaryOperator(rawValue: node.op) {
            case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual: return .boolean
            default: return nil
            }
        case .unary: return UnaryOperator(rawValue: node.op) == .not ? .boolean : nil
        default: return nil
        }
    }

    /// The module of `require "m"` (the global `require`).
    func requiredModule(_ call: NodeID) -> String? {
        let node = tree[call]
        guard node.kind == .call, node.c == 1, let requireSymbol, tree[node.a].kind == .name,
            tree[node.a].a == requireSymbol, resolve(requireSymbol) == nil
        else { return nil }
        let argument = tree.lists[Int(node.b)]
        guard tree[argument].kind == .string, tree[argument].op == 0 else { return nil }
        return tree.text(of: argument)
    }

    mutating func walkExpression(_ root: NodeID) {
        // One stack for every nested walk (a function's body inside an expression walks its own
        // expressions): each walk takes only what it pushed above `base`.
        let base = expressionStack.count
        expressionStack.append(root)
        while expressionStack.count > base {
            let id = expressionStack.removeLast()
            let node = tree[id]
            switch node.kind {
            case .index:
                expressionStack.append(node.a)
                if node.op != 1 { expressionStack.append(node.b) } else { noteFieldRead(node, called: false) }
            case .call, .methodCall:
                noteCall(id)
                expressionStack.append(node.a)
                expressionStack.append(contentsOf: tree.arguments(of: id))
            case .function:
                walkFunction(id, selfTable: nil)
            case .binary:
                expressionStack.append(node.a)
                expressionStack.append(node.b)
            case .unary, .paren:
                expressionStack.append(node.a)
            case .table:
                for field in tree.list(node.a, node.b) {
                    let fieldNode = tree[field]
                    expressionStack.append(fieldNode.a)
                    if fieldNode.kind == .keyedField { expressionStack.append(fieldNode.b) }
                }
            case .name:
                if let probe, Int(node.line) == probe.line, Int(node.column) == probe.column { noteProbe(node) }
            default:
                break
            }
        }
    }

    /// The local read at the editor's probe, with its type here.
    private mutating func noteProbe(_ node: SyntaxNode) {
        guard let local = resolve(node.a), let type = currentType(of: local) else { return }
        types.probed = ModuleTypes.ProbedLocal(name: locals[local].name, type: type, line: locals[local].line)
    }

    /// `x.name` where x is of a class: a read the class must have.
    private mutating func noteFieldRead(_ node: SyntaxNode, called: Bool) {
        guard tree[node.a].kind == .name, let local = resolve(tree[node.a].a),
            case .named(let className) = currentType(of: local)
        else { return }
        let name = tree[node.b]
        types.fieldReads.append(
            ModuleTypes.FieldRead(
                className: className, name: tree.text(of: node.b), line: Int(name.line), column: Int(name.column),
                isCalled: called))
    }
}
