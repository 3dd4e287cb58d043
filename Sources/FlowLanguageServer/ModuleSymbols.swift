import LuaSyntax

/// Every name a module's syntax tree mentions, resolved by Lua's scoping rules: a local (each
/// declaration its own binding, so a shadowing local is another symbol), a global, or a field of
/// a local table (`Banner.frame`, `Banner:show()`, `{ frame = … }`). The index go to
/// definition, references, rename and hover work from.
struct ModuleSymbols {
    /// What one occurrence of a name refers to.
    enum Target: Hashable {
        /// The local declared by `bindings[index]`.
        case local(Int)
        case global(String)
        /// Field `name` of the table the local `bindings[owner]` holds.
        case field(owner: Int, name: String)
        /// Field `name` of the table the chunk returns (`return { name = … }`).
        case exportField(String)
        /// Field `name` of `require "module"` itself (`require("Banner").frame`).
        case requiredField(module: String, name: String)
    }

    /// A name in the source: 1-based line, 1-based byte column, byte length.
    struct Occurrence {
        var line: Int
        var column: Int
        var length: Int
        var target: Target
        /// True where the name is declared or given its value (`local x`, `function M.f`,
        /// `M.f = …`, `{ f = … }`).
        var isDefinition = false
        /// The function a definition assigns, for hover.
        var function: SyntaxTree.NodeID?
        /// The line of the statement holding a definition: its doc comment ends above it.
        var statementLine = 0

        func contains(line: Int, column: Int) -> Bool {
            self.line == line && column >= self.column && column <= self.column + length
        }
    }

    /// One local declaration.
    struct Binding {
        var name: String
        /// Where it is declared; line 0 for a method's implicit `self`.
        var line: Int
        var column: Int
        /// `local x = require "m"`: the module the local holds.
        var requiredModule: String?
        /// A method's `self` (`function M:show()`): the local M, whose fields `self.f` reads.
        var selfOf: Int?
    }

    let tree: SyntaxTree
    private(set) var occurrences: [Occurrence] = []
    private(set) var bindings: [Binding] = []
    /// The local the chunk returns (`return M` at its end), when it returns one.
    private(set) var exportBinding: Int?

    /// The symbols of `source`, or nil when it does not parse.
    init?(source: [UInt8]) {
        guard let tree = try? LuaParser.parse(source) else { return nil }
        self.init(tree: tree)
    }

    init(tree: SyntaxTree) {
        self.tree = tree
        var walker = Walker(tree: tree)
        walker.walkBlock(tree.root, functionDepth: 0)
        occurrences = walker.occurrences
        bindings = walker.bindings
        exportBinding = walker.exportBinding
    }

    /// The occurrence at a 1-based line and byte column.
    func occurrence(line: Int, column: Int) -> Occurrence? {
        occurrences.first { $0.contains(line: line, column: column) }
    }

    /// A function's parameter list as written: `(width, height, ...)`.
    func parameters(of function: SyntaxTree.NodeID) -> String {
        let node = tree[function]
        var names = tree.list(node.a, node.b).map { tree.text(of: $0) }
        if node.op & 1 != 0 { names.append("...") }
        return "(" + names.joined(separator: ", ") + ")"
    }

    /// Whether a function was written `function T:name()` (it takes `self` unseen).
    func isMethod(_ function: SyntaxTree.NodeID) -> Bool { tree[function].op & 2 != 0 }

    /// The `---` comment lines right above `line` (1-based), without their dashes.
    func docComment(above line: Int) -> [String] {
        var lines: [String] = []
        var current = line - 1
        while current >= 1, let text = sourceLine(current) {
            let trimmed = text.drop { $0 == " " || $0 == "\t" }
            guard trimmed.hasPrefix("---") else { break }
            var body = trimmed.dropFirst(3)
            if body.first == " " { body = body.dropFirst() }
            lines.append(String(body))
            current -= 1
        }
        return lines.reversed()
    }

    private func sourceLine(_ line: Int) -> String? {
        var start = 0
        var number = 1
        let source = tree.source
        while number < line {
            guard let newline = source[start...].firstIndex(of: 0x0A) else { return nil }
            start = newline + 1
            number += 1
        }
        let end = source[start...].firstIndex(of: 0x0A) ?? source.count
        var text = String(decoding: source[start..<end], as: UTF8.self)
        if text.hasSuffix("\r") { text.removeLast() }
        return text
    }
}

/// Walks statements recursively (their nesting is bounded by the parser) and expressions with
/// an explicit stack (suffix and operator chains nest without bound).
private struct Walker {
    let tree: SyntaxTree
    var occurrences: [ModuleSymbols.Occurrence] = []
    var bindings: [ModuleSymbols.Binding] = []
    var exportBinding: Int?
    /// Symbol -> the binding it names here; `undo` restores what a closing scope hid.
    private var visible: [Int32: Int] = [:]
    private var undo: [(symbol: Int32, previous: Int?)] = []
    private let requireSymbol: Int32?

    init(tree: SyntaxTree) {
        self.tree = tree
        requireSymbol = tree.symbol(named: "require")
    }

    private typealias NodeID = SyntaxTree.NodeID

    // MARK: Scopes

    private mutating func declare(
        _ localName: NodeID, requiredModule: String? = nil, function: NodeID? = nil, statementLine: Int
    ) -> Int {
        let node = tree[localName]
        let name = tree.text(of: localName)
        let id = bindings.count
        bindings.append(
            ModuleSymbols.Binding(
                name: name, line: Int(node.line), column: Int(node.column), requiredModule: requiredModule))
        undo.append((node.a, visible[node.a]))
        visible[node.a] = id
        occurrences.append(
            ModuleSymbols.Occurrence(
                line: Int(node.line), column: Int(node.column), length: name.utf8.count, target: .local(id),
                isDefinition: true, function: function, statementLine: statementLine))
        return id
    }

    /// Declares a method's `self`, which has no place in the source.
    private mutating func declareSelf(of owner: Int?) {
        guard let symbol = tree.symbol(named: "self") else { return }
        bindings.append(ModuleSymbols.Binding(name: "self", line: 0, column: 0, selfOf: owner))
        undo.append((symbol, visible[symbol]))
        visible[symbol] = bindings.count - 1
    }

    private func resolve(_ symbol: Int32) -> ModuleSymbols.Target {
        if let binding = visible[symbol] { return .local(binding) }
        return .global(tree.symbols[Int(symbol)])
    }

    private mutating func closeScope(_ mark: Int) {
        while undo.count > mark {
            let (symbol, previous) = undo.removeLast()
            visible[symbol] = previous
        }
    }

    // MARK: Statements

    mutating func walkBlock(_ block: SyntaxTree.NodeID, functionDepth: Int, then condition: SyntaxTree.NodeID? = nil) {
        let mark = undo.count
        let statements = tree.statements(of: block)
        for statement in statements {
            walkStatement(statement, functionDepth: functionDepth, isLast: statement == statements.last)
        }
        if let condition { walkExpression(condition) }
        closeScope(mark)
    }

    private mutating func walkStatement(_ id: NodeID, functionDepth: Int, isLast: Bool) {
        let node = tree[id]
        let line = Int(node.line)
        switch node.kind {
        case .local:
            let names = tree.list(node.a, node.b)
            let values = Array(tree.list(node.a + node.b, node.c))
            // A constructor's named keys become fields of the local it initialises; its values
            // are walked before that local exists (they cannot see it), the owner filled in after.
            let start = occurrences.count
            for (index, value) in values.enumerated() {
                if tree[value].kind == .table, index < names.count {
                    walkTable(value, owner: .local(-1 - index))
                } else {
                    walkExpression(value)
                }
            }
            let end = occurrences.count
            var declared: [Int] = []
            for (index, name) in names.enumerated() {
                let value = index < values.count ? values[index] : nil
                let function = value.flatMap { tree[$0].kind == .function ? $0 : nil }
                declared.append(
                    declare(
                        name, requiredModule: value.flatMap(requiredModule), function: function,
                        statementLine: line))
            }
            for index in start..<end {
                if case .field(let owner, let name) = occurrences[index].target, owner < 0 {
                    occurrences[index].target = .field(owner: declared[-1 - owner], name: name)
                }
            }
        case .localFunction:
            _ = declare(node.a, function: node.b, statementLine: line)
            walkFunction(node.b, functionDepth: functionDepth)
        case .functionStatement:
            let target = tree[node.a]
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
            var owner: Int?
            if target.kind == .index, tree[target.a].kind == .name, case .local(let binding) = resolve(tree[target.a].a)
            {
                owner = binding
            }
            walkFunction(node.b, functionDepth: functionDepth, methodOwner: owner)
        case .assignment:
            let targets = tree.list(node.a, node.b)
            let values = Array(tree.list(node.a + node.b, node.c))
            for value in values { walkExpression(value) }
            for (index, target) in targets.enumerated() {
                let value = index < values.count ? values[index] : nil
                let function = value.flatMap { tree[$0].kind == .function ? $0 : nil }
                let kind = tree[target].kind
                if kind == .name {
                    let resolved = resolve(tree[target].a)
                    var found = occurrence(target, resolved, statementLine: line)
                    if case .global = resolved {
                        found.isDefinition = true
                        found.function = function
                    }
                    occurrences.append(found)
                } else if kind == .index {
                    walkIndexTarget(target, function: function, statementLine: line)
                } else {
                    walkExpression(target)
                }
            }
        case .callStatement:
            walkExpression(node.a)
        case .doBlock:
            walkBlock(node.a, functionDepth: functionDepth)
        case .whileLoop:
            walkExpression(node.a)
            walkBlock(node.b, functionDepth: functionDepth)
        case .repeatLoop:
            walkBlock(node.a, functionDepth: functionDepth, then: node.b)
        case .ifStatement:
            let parts = Array(tree.list(node.a, node.b * 2))
            for pair in stride(from: 0, to: parts.count, by: 2) {
                walkExpression(parts[pair])
                walkBlock(parts[pair + 1], functionDepth: functionDepth)
            }
            if node.c >= 0 { walkBlock(node.c, functionDepth: functionDepth) }
        case .numericFor:
            let parts = Array(tree.list(node.a, node.b))
            for expression in parts.dropFirst() { walkExpression(expression) }
            let mark = undo.count
            _ = declare(parts[0], statementLine: 0)
            walkBlock(node.c, functionDepth: functionDepth)
            closeScope(mark)
        case .genericFor:
            let parts = Array(tree.list(node.a, node.b + node.c + 1))
            for expression in parts[Int(node.b)..<Int(node.b + node.c)] { walkExpression(expression) }
            let mark = undo.count
            for name in parts[0..<Int(node.b)] { _ = declare(name, statementLine: 0) }
            walkBlock(parts[parts.count - 1], functionDepth: functionDepth)
            closeScope(mark)
        case .returnStatement:
            let values = Array(tree.list(node.a, node.b))
            let isModuleResult = functionDepth == 0 && isLast && values.count == 1
            for value in values {
                if isModuleResult, tree[value].kind == .table {
                    walkTable(value, owner: .exportField(""))
                    continue
                }
                walkExpression(value)
                if isModuleResult, tree[value].kind == .name, case .local(let binding) = resolve(tree[value].a) {
                    exportBinding = binding
                }
            }
        default:
            break  // break, goto, labels
        }
    }

    /// `X.f = …` / `function X.f()` / `function X:f()`: a definition of field f of the local X
    /// (any deeper chain, `X.a.f`, is only walked).
    private mutating func walkIndexTarget(_ target: NodeID, function: NodeID?, statementLine: Int) {
        let node = tree[target]
        let object = tree[node.a]
        guard node.op == 1, object.kind == .name else {
            walkExpression(target)
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

    private mutating func walkFunction(_ function: NodeID, functionDepth: Int, methodOwner: Int? = nil) {
        let node = tree[function]
        let mark = undo.count
        if node.op & 2 != 0 { declareSelf(of: methodOwner) }
        for parameter in tree.list(node.a, node.b) { _ = declare(parameter, statementLine: 0) }
        walkBlock(node.c, functionDepth: functionDepth + 1)
        closeScope(mark)
    }

    // MARK: Expressions

    /// A table constructor whose named keys are fields of `owner` (`.local(M)`, or
    /// `.exportField` for the chunk's result).
    private mutating func walkTable(_ table: NodeID, owner: ModuleSymbols.Target?) {
        let node = tree[table]
        for field in tree.list(node.a, node.b) {
            let fieldNode = tree[field]
            if fieldNode.kind == .keyedField {
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
                    walkExpression(fieldNode.a)
                }
                walkExpression(value)
            } else {
                walkExpression(fieldNode.a)
            }
        }
    }

    private mutating func walkExpression(_ root: NodeID) {
        var stack: [NodeID] = [root]
        while let id = stack.popLast() {
            let node = tree[id]
            switch node.kind {
            case .name:
                occurrences.append(occurrence(id, resolve(node.a)))
            case .index:
                stack.append(node.a)
                if node.op == 1 {
                    if let target = fieldTarget(object: node.a, name: tree.text(of: node.b)) {
                        occurrences.append(occurrence(node.b, target))
                    }
                } else {
                    stack.append(node.b)
                }
            case .call:
                stack.append(node.a)
                stack.append(contentsOf: tree.arguments(of: id))
            case .methodCall:
                stack.append(node.a)
                let method = tree.lists[Int(node.b)]
                if let target = fieldTarget(object: node.a, name: tree.text(of: method)) {
                    occurrences.append(occurrence(method, target))
                }
                stack.append(contentsOf: tree.arguments(of: id))
            case .function:
                walkFunction(id, functionDepth: 1)
            case .binary:
                stack.append(node.a)
                stack.append(node.b)
            case .unary, .paren:
                stack.append(node.a)
            case .table:
                walkTable(id, owner: nil)
            default:
                break  // literals
            }
        }
    }

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
        guard callee.kind == .name, callee.a == requireSymbol, visible[requireSymbol] == nil else { return nil }
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
