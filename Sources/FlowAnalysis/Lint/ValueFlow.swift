import LuaSyntax

/// luacheck's value classes, found as luacheck finds them: each function becomes a flat list of
/// items (evaluations, declarations, assignments, jumps), and each value given to a local is
/// followed along the jumps until something overwrites it or its scope ends. A value no read can
/// see is unused (311–313), or only filled (331); a read only the declaration's empty value
/// reaches is of an uninitialized local (321, 341).
///
/// A function nested in another is a closure that may run at any time after it is made: a value
/// reaching the place it is made is read by it, and so is every value set after that place (the
/// closure may run later). A value set inside a closure is used when a read can follow the
/// closure's making; reads of a local some closure sets are never called uninitialized. This
/// file builds the items; `ValueFlowRules.swift` follows the values.
///
/// A flow analysis, not a `SyntaxVisitor` pass (issue 44), though it keeps the one
/// `ScopeTracker`: its items need jumps placed between a node's parts (after an `if`'s condition
/// and after each branch, a loop's way back before its body's locals end), patched once the
/// construct ends, and the visitor's hooks come only before and after a node; the second half,
/// following values along the jumps, walks no syntax at all.
struct ValueFlow {
    enum ItemKind: UInt8 { case eval, local, set, jump, conditionalJump, noop }

    struct Item {
        var kind: ItemKind
        /// For a jump, the index of the item it goes to (`Int32.max`: the function's end).
        var target: Int32 = -1
        var actionStart: Int32
        var actionEnd: Int32
        var closureStart: Int32
        var closureEnd: Int32
        /// luacheck's circular reference: in `t.x = t.y` (no call on either side) the reads of
        /// `t` are no use of it. The variable, or -1.
        var circular: Int32 = -1
    }

    enum ActionKind: UInt8 { case access, mutation, set }

    struct Action {
        var kind: ActionKind
        var variable: Int32
        /// For a set, the value it gives.
        var value: Int32
        var line: Int32
        var column: Int32
    }

    /// One function: its items, the reads and sets they make, the closures they create, and the
    /// locals of enclosing functions it (or a function inside it) reads, fills or sets.
    struct Function {
        var items: [Item] = []
        var actions: [Action] = []
        var created: [Int32] = []
        var accessedUpvalues: [Int32] = []
        var mutatedUpvalues: [Int32] = []
        var setUpvalues: [Int32] = []
    }

    enum VariableKind: UInt8 { case local, argument, loop }

    struct Variable {
        var symbol: Int32
        var kind: VariableKind
        var function: Int32
        var scope: Int32
        var scopeStart: Int32
        var scopeEnd: Int32 = Int32.max
        var previous: Int32
        /// Its values, linked through `Value.next`.
        var firstValue: Int32 = -1
        var lastValue: Int32 = -1
        var valueCount: Int32 = 0
        var accessed = false
        var mutated = false
        var setInClosure = false
    }

    struct Value {
        var variable: Int32
        /// The item that gives it.
        var item: Int32
        var line: Int32
        var column: Int32
        var isEmpty: Bool
        var isFunction: Bool
        /// luacheck's "externally accessible": an argument, a loop variable, a function, or a
        /// value read from elsewhere (a name, a field, a call, an operation): filling it may
        /// be seen by others. A new table or a literal is not.
        var isExternallyAccessible: Bool
        var isInitial: Bool
        var used = false
        var mutated = false
        /// The one item that overwrites it on every way on (-1 none yet, -2 none).
        var overwriting: Int32 = -1
        var overwritingLine: Int32 = 0
        /// In `x, x = 1, 2`, the line of the later target that replaces this value at once (0: none).
        var replacedAt: Int32 = 0
        /// The variable's next value, or -1.
        var next: Int32 = -1
    }

    struct Scope {
        var function: Int32
        var variableMark: Int
        var labels: [(symbol: Int32, index: Int32)] = []
        var gotos: [(symbol: Int32, item: Int32)] = []
    }

    var nodes = UnsafeBufferPointer<SyntaxNode>(start: nil, count: 0)
    var lists = UnsafeBufferPointer<Int32>(start: nil, count: 0)
    /// The functions of the chunk are the first `functionCount`; the rest keep their memory
    /// for the next chunk.
    var functions: [Function] = []
    var functionCount = 0
    var variables: [Variable] = []
    var values: [Value] = []
    /// Per symbol, the innermost variable of that name in scope: LuaSyntax's one scope tracker.
    var inScope = ScopeTracker()
    var scopes: [Scope] = []
    /// The functions being built, innermost last.
    var stack: [Int32] = []
    /// Per loop being built: its pending breaks.
    var breaks: [[Int32]] = []
    /// The jumps to the end of each `if` being built.
    var pendingEnds: [Int32] = []
    /// Expressions waiting to be scanned into the current item.
    var pending: [Int32] = []
    var underscoreSymbol: Int32 = -1
    var selfSymbol: Int32 = -1
    var symbols: SymbolTable?
    var findings: [LintFinding] = []
    /// Values set inside a closure, by the item of the local's function that makes the closure.
    var closureSets: [ClosureSet] = []
    /// By node id: the functions not built (`ModuleLinter.functionsValueFlowSkips`); empty: none.
    var skipped: [Bool] = []

    struct ClosureSet {
        var variable: Int32
        var item: Int32
        var line: Int32
        var column: Int32
    }

    var current: Int32 { stack[stack.count - 1] }

    /// The findings of a parsed chunk.
    mutating func check(
        nodes: UnsafeBufferPointer<SyntaxNode>, lists: UnsafeBufferPointer<Int32>, symbols: SymbolTable, root: Int32,
        skipped: [Bool] = []
    ) -> [LintFinding] {
        self.skipped = skipped
        self.nodes = nodes
        self.lists = lists
        self.symbols = symbols
        functionCount = 0
        variables.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        inScope.reset(symbolCount: symbols.count)
        scopes.removeAll(keepingCapacity: true)
        stack.removeAll(keepingCapacity: true)
        breaks.removeAll(keepingCapacity: true)
        findings.removeAll(keepingCapacity: true)
        closureSets.removeAll(keepingCapacity: true)
        underscoreSymbol = symbols.symbol(of: "_") ?? -1
        selfSymbol = symbols.symbol(of: "self") ?? -1

        buildFunction(parameters: lists[0..<0], implicitSelf: nil, body: root)
        follow()
        self.nodes = UnsafeBufferPointer(start: nil, count: 0)
        self.lists = UnsafeBufferPointer(start: nil, count: 0)
        self.symbols = nil
        self.skipped = []
        return findings
    }

    /// The values of a variable, in order.
    func valuesOf(_ variable: Int32) -> [Int32] {
        var result: [Int32] = []
        var value = variables[Int(variable)].firstValue
        while value >= 0 {
            result.append(value)
            value = values[Int(value)].next
        }
        return result
    }

    func symbolText(_ symbol: Int32) -> String { symbols.unsafelyUnwrapped.text(of: symbol) }

    // MARK: Functions and scopes

    mutating func buildFunction(
        parameters: Slice<UnsafeBufferPointer<Int32>>, implicitSelf: (line: Int32, column: Int32)?, body: Int32
    ) {
        let id = Int32(functionCount)
        if functionCount < functions.count {
            functions[functionCount].items.removeAll(keepingCapacity: true)
            functions[functionCount].actions.removeAll(keepingCapacity: true)
            functions[functionCount].created.removeAll(keepingCapacity: true)
            functions[functionCount].accessedUpvalues.removeAll(keepingCapacity: true)
            functions[functionCount].mutatedUpvalues.removeAll(keepingCapacity: true)
            functions[functionCount].setUpvalues.removeAll(keepingCapacity: true)
        } else {
            functions.append(Function())
        }
        functionCount += 1
        stack.append(id)
        enterScope()
        // The arguments' values, given at the function's start.
        let item = beginItem(.local)
        enterScope()
        if let implicitSelf {
            declare(
                selfSymbol, kind: .argument, line: implicitSelf.line, column: implicitSelf.column, item: item, node: -1)
        }
        for parameter in parameters {
            let name = nodes[Int(parameter)]
            declare(name.a, kind: .argument, line: name.line, column: name.column, item: item, node: -1)
        }
        endItem(item)
        statements(of: body)
        leaveScope()
        leaveScope()
        stack.removeLast()
    }

    mutating func enterScope() {
        scopes.append(Scope(function: current, variableMark: inScope.mark))
    }

    mutating func leaveScope() {
        let scope = scopes.removeLast()
        let end = Int32(functions[Int(scope.function)].items.count) - 1
        while let variable = inScope.innermost(above: scope.variableMark) {
            if variables[Int(variable)].scopeEnd == Int32.max { variables[Int(variable)].scopeEnd = end }
            inScope.unbindInnermost()
        }
        // Gotos to a label of this block go there; the others to the enclosing block's labels.
        for jump in scope.gotos {
            if let label = scope.labels.last(where: { $0.symbol == jump.symbol }) {
                functions[Int(scope.function)].items[Int(jump.item)].target = label.index
            } else if let outer = scopes.indices.last, scopes[outer].function == scope.function {
                scopes[outer].gotos.append(jump)
            } else {
                functions[Int(scope.function)].items[Int(jump.item)].target = Int32.max
            }
        }
    }

    /// Declares a local of the current function; its first value is given by `item` (`node`
    /// the value's expression, -1 for none).
    @discardableResult
    mutating func declare(
        _ symbol: Int32, kind: VariableKind, line: Int32, column: Int32, item: Int32, node: Int32, empty: Bool = false
    ) -> Int32 {
        let index = Int32(variables.count)
        let previous = symbol >= 0 ? inScope.binding(of: symbol) : -1
        let scope = Int32(scopes.count - 1)
        if previous >= 0, variables[Int(previous)].scope == scope, variables[Int(previous)].function == current {
            // Redefined in the same block: the first one's scope ends here.
            variables[Int(previous)].scopeEnd = Int32(functions[Int(current)].items.count) - 1
        }
        variables.append(
            Variable(
                symbol: symbol, kind: kind, function: current, scope: scope,
                scopeStart: Int32(functions[Int(current)].items.count), previous: previous))
        inScope.declare(symbol, as: index)
        addValue(of: index, item: item, line: line, column: column, node: node, initial: true, empty: empty)
        return index
    }

    mutating func addValue(
        of variable: Int32, item: Int32, line: Int32, column: Int32, node: Int32, initial: Bool, empty: Bool
    ) {
        let kind = variables[Int(variable)].kind
        let nodeKind = node >= 0 ? nodes[Int(node)].kind : nil
        let isFunction = nodeKind == .function
        var accessible = kind != .local || isFunction
        if let nodeKind, [.name, .index, .call, .methodCall, .binary, .unary, .paren, .vararg].contains(nodeKind) {
            accessible = true
        }
        let value = Int32(values.count)
        values.append(
            Value(
                variable: variable, item: item, line: line, column: column, isEmpty: empty, isFunction: isFunction,
                isExternallyAccessible: accessible, isInitial: initial))
        let last = variables[Int(variable)].lastValue
        if last >= 0 { values[Int(last)].next = value } else { variables[Int(variable)].firstValue = value }
        variables[Int(variable)].lastValue = value
        variables[Int(variable)].valueCount += 1
    }

    // MARK: Items

    mutating func beginItem(_ kind: ItemKind) -> Int32 {
        let function = current
        let index = Int32(functions[Int(function)].items.count)
        let actions = Int32(functions[Int(function)].actions.count)
        let created = Int32(functions[Int(function)].created.count)
        functions[Int(function)].items.append(
            Item(kind: kind, actionStart: actions, actionEnd: actions, closureStart: created, closureEnd: created))
        return index
    }

    mutating func endItem(_ item: Int32) {
        let function = current
        functions[Int(function)].items[Int(item)].actionEnd = Int32(functions[Int(function)].actions.count)
        functions[Int(function)].items[Int(item)].closureEnd = Int32(functions[Int(function)].created.count)
    }

    mutating func emit(_ kind: ItemKind, target: Int32 = -1) -> Int32 {
        let item = beginItem(kind)
        functions[Int(current)].items[Int(item)].target = target
        return item
    }

    var nextIndex: Int32 { Int32(functions[Int(current)].items.count) }

    mutating func patch(_ item: Int32, to target: Int32) {
        functions[Int(current)].items[Int(item)].target = target
    }

    /// An item evaluating one expression.
    mutating func evaluate(_ expression: Int32) {
        let item = beginItem(.eval)
        scan(expression)
        endItem(item)
    }

    /// A jump taken when `condition` is false: none when it is a true constant, always when a
    /// false one.
    mutating func jumpUnless(_ condition: Int32) -> Int32? {
        var condition = condition
        while nodes[Int(condition)].kind == .paren { condition = nodes[Int(condition)].a }
        switch nodes[Int(condition)].kind {
        case .trueLiteral, .number, .string, .table, .function: return nil
        case .falseLiteral, .nilLiteral: return emit(.jump)
        default: return emit(.conditionalJump)
        }
    }
}
