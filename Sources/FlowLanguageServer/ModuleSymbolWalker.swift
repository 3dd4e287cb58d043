import LuaSyntax

/// The pass that finds `ModuleSymbols`: LuaSyntax's one walk and scope tracker, with what a name
/// means to an editor on top: a local's declaration and uses, a global, a field of a local
/// table or of the chunk's result.
struct ModuleSymbolWalker: SyntaxVisitor {
    typealias NodeID = SyntaxTree.NodeID

    let tree: SyntaxTree
    var scopes = ScopeTracker()
    var occurrences: [ModuleSymbols.Occurrence] = []
    var bindings: [ModuleSymbols.Binding] = []
    var exportBinding: Int?
    private var functionDepth = 0
    private let requireSymbol: Int32?
    /// What the next declared local carries: set by the statement that declares it.
    private var pending = Pending()
    /// The local whose method is being declared (`function M:show()`): its `self`'s table.
    private var methodOwner: Int?

    private struct Pending {
        var requiredModule: String?
        var function: NodeID?
        var statementLine = 0
    }

    init(tree: SyntaxTree) {
        self.tree = tree
        requireSymbol = tree.symbol(named: "require")
    }

    // MARK: Scopes

    mutating func declaration(of localName: NodeID, _ node: SyntaxNode) -> Int32 {
        let name = tree.text(of: localName)
        let id = bindings.count
        bindings.append(
            ModuleSymbols.Binding(
                name: name, line: Int(node.line), column: Int(node.column), requiredModule: pending.requiredModule))
        occurrences.append(
            ModuleSymbols.Occurrence(
                line: Int(node.line), column: Int(node.column), length: name.utf8.count, target: .local(id),
                isDefinition: true, function: pending.function, statementLine: pending.statementLine))
        pending = Pending()
        return Int32(id)
    }

    /// A method's `self`, which has no place in the source.
    mutating func implicitSelf(of function: NodeID) -> Int32? {
        bindings.append(ModuleSymbols.Binding(name: "self", line: 0, column: 0, selfOf: methodOwner))
        methodOwner = nil
        return Int32(bindings.count - 1)
    }

    private func resolve(_ symbol: Int32) -> ModuleSymbols.Target {
        let binding = scopes.binding(of: symbol)
        return binding >= 0 ? .local(Int(binding)) : .global(tree.symbols[Int(symbol)])
    }

    // MARK: Nodes

    mutating func visit(_ id: NodeID, _ node: SyntaxNode) -> SyntaxVisitorContinueKind {
        switch node.kind {
        case .local: visitLocal(node)
        case .localFunction:
            pending = Pending(function: node.b, statementLine: Int(node.line))
            declareLocal(node.a)
            walk(node.b)
        case .functionStatement: visitFunctionStatement(node)
        case .assignment: visitAssignment(node)
        case .returnStatement: visitReturn(node)
        case .table: walkTable(id, owner: nil)
        case .function:
            functionDepth += 1
            return .visitChildren
        case .name:
            occurrences.append(occurrence(id, resolve(node.a)))
            return .visitChildren
        case .index:
            if node.op == 1, let target = fieldTarget(object: node.a, name: tree.text(of: node.b)) {
                occurrences.append(occurrence(node.b, target))
            }
            return .visitChildren
        case .methodCall:
            let method = tree.lists[Int(node.b)]
            if let target = fieldTarget(object: node.a, name: tree.text(of: method)) {
                occurrences.append(occurrence(method, target))
            }
            return .visitChildren
        default:
            return .visitChildren
        }
        return .skipChildren
    }

    mutating func visitPost(_ id: NodeID, _ node: SyntaxNode) {
        if node.kind == .function { functionDepth -= 1 }
    }

    /// A constructor's named keys become fields of the local it initialises; its values are
    /// walked before that local exists (they cannot see it), the owner filled in after.
    private mutating func visitLocal(_ node: SyntaxNode) {
        let names = tree.list(node.a, node.b)
        let values = Array(tree.list(node.a + node.b, node.c))
        let start = occurrences.count
        for (index, value) in values.enumerated() {
            if tree[value].kind == .table, index < names.count {
                walkTable(value, owner: .local(-1 - index))
            } else {
                walk(value)
            }
        }
        let end = occurrences.count
        var declared: [Int] = []
        for (index, name) in names.enumerated() {
            let value = index < values.count ? values[index] : nil
            pending = Pending(
                requiredModule: value.flatMap(requiredModule),
                function: value.flatMap { tree[$0].kind == .function ? $0 : nil }, statementLine: Int(node.line))
            declared.append(bindings.count)
            declareLocal(name)
        }
        for index in start..<end {
            if case .field(let owner, let name) = occurrences[index].target, owner < 0 {
                occurrences[index].target = .field(owner: declared[-1 - owner], name: name)
            }
        }
    }

    private mutating func visitFunctionStatement(_ node: SyntaxNode) {
        let target = tree[node.a]
        let line = Int(node.line)
        if target.kind == .name {
            let resolved = resolve(target.a)
            var found = occurrence(node.a, resolved, statementLine: line)
            if case .global = resolved {
                found.isDefinition = true
                found.function = node.b
            }
            occurrences.append(found)
        } else {
            walkIndexTarget(node.a, function: node.b, statementLine: line)
        }
        if target.kind == .index, tree[target.a].kind == .name, case .local(let binding) = resolve(tree[target.a].a) {
            methodOwner = binding
        }
        walk(node.b)
        methodOwner = nil
    }

    private mutating func visitAssignment(_ node: SyntaxNode) {
        let targets = tree.list(node.a, node.b)
        let values = Array(tree.list(node.a + node.b, node.c))
        for value in values { walk(value) }
        for (index, target) in targets.enumerated() {
            let value = index < values.count ? values[index] : nil
            let function = value.flatMap { tree[$0].kind == .function ? $0 : nil }
            let kind = tree[target].kind
            if kind == .name {
                let resolved = resolve(tree[target].a)
                var found = occurrence(target, resolved, statementLine: Int(node.line))
                if case .global = resolved {
                    found.isDefinition = true
                    found.function = function
                }
                occurrences.append(found)
            } else if kind == .index {
                walkIndexTarget(target, function: function, statementLine: Int(node.line))
            } else {
                walk(target)
            }
        }
    }

    /// The main chunk's `return M` or `return { … }` (a `return` is always its block's last statement).
    private mutating func visitReturn(_ node: SyntaxNode) {
        let values = tree.list(node.a, node.b)
        let isModuleResult = functionDepth == 0 && values.count == 1
        for value in values {
            if isModuleResult, tree[value].kind == .table {
                walkTable(value, owner: .exportField(""))
                continue
            }
            walk(value)
            if isModuleResult, tree[value].kind == .name, case .local(let binding) = resolve(tree[value].a) {
                exportBinding = binding
            }
        }
    }

    /// `X.f = …` / `function X.f()` / `function X:f()`: a definition of field f of the local X
    /// (any deeper chain, `X.a.f`, is only walked).
    private mutating func walkIndexTarget(_ target: NodeID, function: NodeID?, statementLine: Int) {
        let node = tree[target]
        let object = tree[node.a]
        guard node.op == 1, object.kind == .name else {
            walk(target)
            return
        }
        let resolved = resolve(object.a)
        occurrences.append(occurrence(node.a, resolved, statementLine: statementLine))
        if case .local(let owner) = resolved {
            occurrences.append(
                occurrence(
                    node.b, .field(owner: owner, name: tree.text(of: node.b)), isDefinition: true, function: function,
                    statementLine: statementLine))
        }
    }

    /// A table constructor whose named keys are fields of `owner` (`.local(M)`, or
    /// `.exportField` for the chunk's result).
    private mutating func walkTable(_ table: NodeID, owner: ModuleSymbols.Target?) {
        let node = tree[table]
        for field in tree.list(node.a, node.b) {
            let fieldNode = tree[field]
            guard fieldNode.kind == .keyedField else {
                walk(fieldNode.a)
                continue
            }
            let key = tree[fieldNode.a]
            let value = fieldNode.b
            if key.kind == .string, key.op == 1, let owner {
                let name = tree.text(of: fieldNode.a)
                let target: ModuleSymbols.Target
                if case .local(let binding) = owner {
                    target = .field(owner: binding, name: name)
                } else {
                    target = .exportField(name)
                }
                occurrences.append(
                    occurrence(
                        fieldNode.a, target, isDefinition: true,
                        function: tree[value].kind == .function ? value : nil, statementLine: Int(fieldNode.line)))
            } else {
                walk(fieldNode.a)
            }
            walk(value)
        }
    }

    // MARK: Names

    /// What `object.name` refers to, when `object` is a local or `require "m"`.
    private func fieldTarget(object: NodeID, name: String) -> ModuleSymbols.Target? {
        let node = tree[object]
        if node.kind == .name, case .local(let binding) = resolve(node.a) {
            return .field(owner: bindings[binding].selfOf ?? binding, name: name)
        }
        if let module = requiredModule(object) { return .requiredField(module: module, name: name) }
        if node.kind == .paren { return fieldTarget(object: node.a, name: name) }
        return nil
    }

    /// The module of `require "m"` / `require("m")` (the global `require`, not a local one).
    private func requiredModule(_ call: NodeID) -> String? {
        let node = tree[call]
        guard node.kind == .call, node.c == 1, let requireSymbol else { return nil }
        let callee = tree[node.a]
        guard callee.kind == .name, callee.a == requireSymbol, !scopes.isBound(requireSymbol) else { return nil }
        let argument = tree.lists[Int(node.b)]
        guard tree[argument].kind == .string, tree[argument].op == 0 else { return nil }
        return tree.text(of: argument)
    }

    private func occurrence(
        _ id: NodeID, _ target: ModuleSymbols.Target, isDefinition: Bool = false, function: NodeID? = nil,
        statementLine: Int = 0
    ) -> ModuleSymbols.Occurrence {
        let node = tree[id]
        return ModuleSymbols.Occurrence(
            line: Int(node.line), column: Int(node.column), length: tree.text(of: id).utf8.count, target: target,
            isDefinition: isDefinition, function: function, statementLine: statementLine)
    }
}
