import LuaSyntax

/// Walks a module's syntax tree once for luacheck's per-module warning classes: each local
/// variable's life (declared, set, read, mutated: 2xx), redefinition and shadowing (4xx),
/// assignments to globals and reads of library fields (1xx, judged later against the
/// project's environment), control flow (5xx) and table keys (314). Whitespace and line
/// length (6xx) are read from the bytes (`WhitespaceLint`).
///
/// The rules of each family live in their own file, as extensions of this walker; this file
/// holds the walk and the scopes. Reusable: `lint` starts from scratch and keeps its arrays.
struct ModuleLinter {
    var nodes = UnsafeBufferPointer<SyntaxNode>(start: nil, count: 0)
    var lists = UnsafeBufferPointer<Int32>(start: nil, count: 0)
    var source = UnsafeRawBufferPointer(start: nil, count: 0)
    var symbols: SymbolTable?
    /// Byte offset where each line starts (index 0 is line 1).
    var lineStarts: [Int] = []

    enum Kind: UInt8 { case local, function, argument, implicitSelf, loop }

    struct Variable {
        var symbol: Int32
        var kind: Kind
        var line: Int32
        var column: Int32
        var function: Int32
        var scope: Int32
        var hasValue: Bool
        var accessed = false
        var accessedInOwnBody = false
        var assigned = false
        var mutated = false
        /// The variable of the same name this one hides, or -1.
        var previous: Int32 = -1
        /// For a local function: true while its own body is walked.
        var insideOwnBody = false
        /// The first variable and the count of a `local a, b = f()` that declared several from
        /// one call (-1: none): an unused one beside a used one is a "secondary".
        var group: Int32 = -1
        var groupCount: Int32 = 0
        /// Declared with a table constructor: filling it and never reading it is 241. A table
        /// from elsewhere (`local m = require "x"`) is someone else's, and filling it is a use.
        var holdsNewTable = false
        /// Read other than as `v.field` / `v:method()` (passed on, assigned elsewhere, compared).
        var readWhole = false
        /// The symbol of the module name `require` gave this local (`local B = require
        /// "Banner"`), -1 for none.
        var requiredModule: Int32 = -1
        /// The table constructor that gave it its fields, when all of their keys are names, or
        /// -1; the fields set on it later are in `fieldWriteLog`. Kept as ids, not Strings: a
        /// variable is copied at every scope's end, and only a module's returned table needs them.
        var constructor: Int32 = -1
        /// Set with a computed key (`v[k] = x`): which fields it has only running it can tell.
        var computedWrite = false
    }

    /// A function being walked: its vararg and its labels.
    struct FunctionFrame {
        var id: Int32
        var varargLine: Int32 = 0
        var varargColumn: Int32 = 0
        var takesVararg = false
        var usesVararg = false
        var labels: [(symbol: Int32, line: Int32, column: Int32)] = []
        var gotos: Set<Int32> = []
    }

    var variables: [Variable] = []
    /// Per symbol: the innermost variable of that name in scope, or -1.
    var binding: [Int32] = []
    /// Variables in scope, innermost last.
    var inScope: [Int32] = []
    var scope: Int32 = 0
    var scopeCount: Int32 = 0
    var frames: [FunctionFrame] = []
    var functionCount: Int32 = 0
    var chain: [Int32] = []
    var environmentSymbol: Int32 = -1
    var underscoreSymbol: Int32 = -1
    var requireSymbol: Int32 = -1
    var selfSymbol: Int32 = -1
    /// Set while walking an operand that tests what it reads (`x or y`, an `if` condition).
    var isTesting = false
    /// The local the main chunk returns (`return M`), or -1.
    var returnedVariable: Int32 = -1
    var facts = LintFacts()
    /// The value-flow (311–341) and arity (FP482, FP483) passes' state, held by reference.
    let passes = LintPasses()
    /// `v.key = x` on a local: the variable, the key's symbol and its line.
    var fieldWriteLog: [(variable: Int32, key: Int32, line: Int32)] = []

    var currentFunction: Int32 { frames[frames.count - 1].id }

    /// The lint facts of a parsed chunk.
    mutating func lint(
        nodes: UnsafeBufferPointer<SyntaxNode>, lists: UnsafeBufferPointer<Int32>, symbols: SymbolTable,
        source: UnsafeRawBufferPointer, root: Int32
    ) -> LintFacts {
        self.nodes = nodes
        self.lists = lists
        self.symbols = symbols
        self.source = source
        computeLineStarts()
        variables.removeAll(keepingCapacity: true)
        binding.removeAll(keepingCapacity: true)
        binding.append(contentsOf: repeatElement(-1, count: symbols.count))
        inScope.removeAll(keepingCapacity: true)
        frames.removeAll(keepingCapacity: true)
        chain.removeAll(keepingCapacity: true)
        scope = 0
        scopeCount = 0
        functionCount = 0
        returnedVariable = -1
        fieldWriteLog.removeAll(keepingCapacity: true)
        facts = LintFacts()
        environmentSymbol = symbols.symbol(of: "_ENV") ?? -1
        underscoreSymbol = symbols.symbol(of: "_") ?? -1
        requireSymbol = symbols.symbol(of: "require") ?? -1
        selfSymbol = symbols.symbol(of: "self") ?? -1

        frames.append(FunctionFrame(id: 0))
        let mark = enterScope()
        statements(of: root)
        leaveScope(to: mark)
        finishFunction()
        finishModuleFields()
        finishArity()
        if variables.contains(where: \.assigned) {
            facts.findings += passes.valueFlow.check(nodes: nodes, lists: lists, symbols: symbols, root: root)
        }
        WhitespaceLint.check(source, into: &facts.findings)

        let result = facts
        self.nodes = UnsafeBufferPointer(start: nil, count: 0)
        self.lists = UnsafeBufferPointer(start: nil, count: 0)
        self.source = UnsafeRawBufferPointer(start: nil, count: 0)
        self.symbols = nil
        facts = LintFacts()
        return result
    }

    private mutating func computeLineStarts() {
        lineStarts.removeAll(keepingCapacity: true)
        lineStarts.append(0)
        guard let base = source.baseAddress else { return }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        var index = 0
        let count = source.count
        while index < count {
            let byte = bytes[index]
            if byte == 0x0A {
                lineStarts.append(index + 1)
            } else if byte == 0x0D {
                // \r\n, \n\r and a lone \r are each one line break, as Lua counts them.
                if index + 1 < count, bytes[index + 1] == 0x0A { index += 1 }
                lineStarts.append(index + 1)
            }
            index += 1
        }
    }

    /// The byte offset of a line and column.
    func offset(line: Int32, column: Int32) -> Int {
        let index = Int(line) - 1
        guard index >= 0, index < lineStarts.count else { return source.count }
        return min(source.count, lineStarts[index] + Int(column) - 1)
    }

    @inline(__always) func byte(at offset: Int) -> UInt8 {
        offset >= 0 && offset < source.count ? source[offset] : 0
    }

    /// The line and column of a byte offset.
    func place(of offset: Int) -> (line: Int32, column: Int32) {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return (Int32(low + 1), Int32(offset - lineStarts[low] + 1))
    }

    @inline(__always) func text(_ symbol: Int32) -> String { symbols.unsafelyUnwrapped.text(of: symbol) }

    // MARK: Scopes

    mutating func enterScope() -> Int {
        scopeCount += 1
        scope = scopeCount
        return inScope.count
    }

    /// Leaves the scope entered when `inScope` held `mark` variables, judging each of its variables.
    mutating func leaveScope(to mark: Int, parent: Int32? = nil) {
        while inScope.count > mark {
            let index = inScope.removeLast()
            let variable = variables[Int(index)]
            judgeUse(of: variable)
            noteEscape(of: variable)
            binding[Int(variable.symbol)] = variable.previous
        }
        scope = parent ?? scope
    }

    /// Declares a variable in the current scope, after noting what it redefines or shadows.
    @discardableResult
    mutating func declare(_ symbol: Int32, kind: Kind, line: Int32, column: Int32, hasValue: Bool) -> Int32 {
        let previous = binding[Int(symbol)]
        if previous >= 0 { noteShadowing(of: variables[Int(previous)], symbol: symbol, line: line, column: column) }
        let index = Int32(variables.count)
        variables.append(
            Variable(
                symbol: symbol, kind: kind, line: line, column: column, function: currentFunction, scope: scope,
                hasValue: hasValue, previous: previous))
        binding[Int(symbol)] = index
        inScope.append(index)
        return index
    }

    /// Whether `symbol` names a global here: no local of that name nor a local `_ENV` in scope.
    @inline(__always) func isGlobal(_ symbol: Int32) -> Bool {
        binding[Int(symbol)] < 0 && (environmentSymbol < 0 || binding[Int(environmentSymbol)] < 0)
            && symbol != environmentSymbol
    }

    /// Whether `symbol` is a free name here, a global as luacheck's 1xx classes see one: no local
    /// of that name in scope, whatever `_ENV` holds (see `LintRules.check`).
    @inline(__always) func isFreeName(_ symbol: Int32) -> Bool {
        binding[Int(symbol)] < 0 && symbol != environmentSymbol
    }

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
                    LintFinding(511, line: nodes[Int(statement)].line, column: nodes[Int(statement)].column))
            }
            self.statement(statement)
            if !unreachable, syntax.terminates(statement) { unreachable = true }
        }
    }

    mutating func statement(_ id: Int32) {
        let node = nodes[Int(id)]
        switch node.kind {
        case .local:
            let names = Int(node.a)..<Int(node.a + node.b)
            let values = names.upperBound..<(names.upperBound + Int(node.c))
            for index in values { expression(lists[index]) }
            if node.c > node.b {
                facts.findings.append(LintFinding(531, line: node.line, column: node.column))
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
                facts.findings.append(LintFinding(541, line: node.line, column: node.column))
            }
            block(node.a)
        case .whileLoop:
            testedExpression(node.a)
            checkLoopRunsOnce(node, body: node.b)
            block(node.b)
        case .repeatLoop:
            // The condition sees the body's locals.
            checkLoopRunsOnce(node, body: node.a)
            let parent = scope
            let mark = enterScope()
            statements(of: node.a)
            expression(node.b)
            leaveScope(to: mark, parent: parent)
        case .ifStatement:
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
                        LintFinding(511, line: nodes[Int(first)].line, column: nodes[Int(first)].column))
                }
                block(body)
            }
            if node.c >= 0 {
                checkEmptyBranch(node.c, keyword: "else")
                block(node.c)
            }
        case .numericFor:
            for index in Int(node.a + 1)..<Int(node.a + node.b) { expression(lists[index]) }
            checkReverseLoop(node)
            checkLoopRunsOnce(node, body: node.c)
            let parent = scope
            let mark = enterScope()
            let name = nodes[Int(lists[Int(node.a)])]
            declare(name.a, kind: .loop, line: name.line, column: name.column, hasValue: true)
            statements(of: node.c)
            leaveScope(to: mark, parent: parent)
        case .genericFor:
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
        case .functionStatement:
            assignFunctionTarget(node.a)
            noteFieldFunction(target: node.a, function: node.b)
            function(node.b, implicitSelfAt: methodColon(of: node.a))
        case .localFunction:
            let name = nodes[Int(node.a)]
            let variable = declare(name.a, kind: .function, line: name.line, column: name.column, hasValue: true)
            variables[Int(variable)].insideOwnBody = true
            noteFunctionValue(of: variable, value: node.b)
            function(node.b)
            variables[Int(variable)].insideOwnBody = false
        case .returnStatement:
            if frames.count == 1, node.b == 1 {
                noteModuleReturn(lists[Int(node.a)])
                let value = nodes[Int(lists[Int(node.a)])]
                if value.kind == .name, binding[Int(value.a)] >= 0 {
                    // Returning the module's table is no use that opens it.
                    let bound = binding[Int(value.a)]
                    let saved = variables[Int(bound)].readWhole
                    read(value.a)
                    variables[Int(bound)].readWhole = saved
                    return
                }
            }
            for index in Int(node.a)..<Int(node.a + node.b) { expression(lists[index]) }
        case .gotoStatement:
            frames[frames.count - 1].gotos.insert(node.a)
        case .label:
            frames[frames.count - 1].labels.append((node.a, node.line, node.column))
        default:
            break
        }
    }

    /// An expression whose value is tested (a condition): a library field of another Lua version it reads is fine.
    mutating func testedExpression(_ id: Int32) {
        let saved = isTesting
        isTesting = true
        expression(id)
        isTesting = saved
    }

    // MARK: Assignments

    mutating func assign(to target: Int32) {
        let node = nodes[Int(target)]
        if node.kind == .name {
            let bound = binding[Int(node.a)]
            if bound >= 0 {
                variables[Int(bound)].assigned = true
            } else if isFreeName(node.a) {
                facts.globalSets.append(
                    .init(global: text(node.a), line: node.line, column: node.column, isTopLevel: frames.count == 1))
            }
            return
        }
        guard node.kind == .index else { return expression(target) }
        mutate(node.a, key: node.b, at: node)
        expression(node.b)
    }

    /// `base[key] = v` or `base.key = v`: mutates a local table, or a global's field.
    mutating func mutate(_ base: Int32, key: Int32, at node: SyntaxNode) {
        let object = nodes[Int(base)]
        if object.kind == .index, mutateNested(base, key: key) { return }
        guard object.kind == .name else { return expression(base) }
        let bound = binding[Int(object.a)]
        if bound >= 0 {
            variables[Int(bound)].mutated = true
            noteFieldWrite(bound, key: nodes[Int(key)])
        } else if isFreeName(object.a) {
            let keyNode = nodes[Int(key)]
            let field = keyNode.kind == .string ? text(keyNode.a) : ""
            facts.globalFieldSets.append(
                .init(global: text(object.a), field: field, line: object.line, column: object.column))
        }
    }

    /// `a.b.c = v` on a global `a`: luacheck counts it a mutation of `a` (112), or on a library
    /// table a field `b.c` set on it (142), at `a`'s place. False (nothing done) when the chain
    /// does not start at a global; its reads are then walked as any expression's.
    mutating func mutateNested(_ base: Int32, key: Int32) -> Bool {
        var current = base
        var isLiteralPath = nodes[Int(key)].kind == .string
        while nodes[Int(current)].kind == .index {
            if nodes[Int(nodes[Int(current)].b)].kind != .string { isLiteralPath = false }
            current = nodes[Int(current)].a
        }
        let root = nodes[Int(current)]
        guard root.kind == .name, isFreeName(root.a) else { return false }
        var path: [String] = []
        var link = base
        while nodes[Int(link)].kind == .index {
            let step = nodes[Int(link)]
            expression(step.b)
            if isLiteralPath { path.append(text(nodes[Int(step.b)].a)) }
            link = step.a
        }
        let field = isLiteralPath ? (path.reversed() + [text(nodes[Int(key)].a)]).joined(separator: ".") : ""
        facts.globalFieldSets.append(.init(global: text(root.a), field: field, line: root.line, column: root.column))
        return true
    }

    /// `function name()`, `function a.b()`, `function a:b()`, `function a.b.c()`.
    mutating func assignFunctionTarget(_ target: Int32) {
        let node = nodes[Int(target)]
        if node.kind == .name { return assign(to: target) }
        guard node.kind == .index else { return }
        mutate(node.a, key: node.b, at: node)
    }

    /// The place of `:` in `function a:b()`, when the target is a method's.
    // `mutating` though it changes nothing: a non-mutating method called from the walk copies
    // the whole walker (retaining each of its arrays) at every call.
    mutating func methodColon(of target: Int32) -> (line: Int32, column: Int32)? {
        let node = nodes[Int(target)]
        guard node.kind == .index else { return nil }
        let key = nodes[Int(node.b)]
        var offset = self.offset(line: key.line, column: key.column) - 1
        while offset > 0, byte(at: offset) == 0x20 || byte(at: offset) == 0x09 { offset -= 1 }
        guard byte(at: offset) == UInt8(ascii: ":") else { return nil }
        return place(of: offset)
    }

    // MARK: Functions

    mutating func function(_ id: Int32, implicitSelfAt colon: (line: Int32, column: Int32)? = nil) {
        let node = nodes[Int(id)]
        functionCount += 1
        var frame = FunctionFrame(id: functionCount)
        if node.op & 1 != 0, let place = varargPlace(of: node) {
            frame.takesVararg = true
            frame.varargLine = place.line
            frame.varargColumn = place.column
        }
        frames.append(frame)
        let parent = scope
        let mark = enterScope()
        if node.op & 2 != 0 {
            let place = colon ?? (node.line, node.column)
            if selfSymbol >= 0 {
                declare(selfSymbol, kind: .implicitSelf, line: place.line, column: place.column, hasValue: true)
            } else {
                // The chunk never says `self`: nothing can read this one.
                facts.findings.append(LintFinding(212, line: place.line, column: place.column, name: "self"))
            }
        }
        for index in Int(node.a)..<Int(node.a + node.b) {
            let parameter = nodes[Int(lists[index])]
            declare(parameter.a, kind: .argument, line: parameter.line, column: parameter.column, hasValue: true)
        }
        statements(of: node.c)
        leaveScope(to: mark, parent: parent)
        finishFunction()
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
        if frame.takesVararg, !frame.usesVararg {
            facts.findings.append(
                LintFinding(212, line: frame.varargLine, column: frame.varargColumn, detail: "vararg"))
        }
        for label in frame.labels where !frame.gotos.contains(label.symbol) {
            facts.findings.append(LintFinding(521, line: label.line, column: label.column, name: text(label.symbol)))
        }
    }

    // MARK: Expressions

    mutating func expression(_ id: Int32) {
        let node = nodes[Int(id)]
        switch node.kind {
        case .name:
            read(node.a)
        case .vararg:
            frames[frames.count - 1].usesVararg = true
        case .binary, .index, .call, .methodCall:
            leftChain(id)
        case .unary:
            checkNegation(node)
            expression(node.a)
        case .paren, .positionalField:
            expression(node.a)
        case .keyedField:
            expression(node.a)
            expression(node.b)
        case .function:
            function(id)
        case .table:
            checkDuplicateKeys(node)
            for index in Int(node.a)..<Int(node.a + node.b) { expression(lists[index]) }
        default:
            break
        }
    }

    @inline(__always) mutating func read(_ symbol: Int32) {
        let bound = binding[Int(symbol)]
        guard bound >= 0 else { return }
        if variables[Int(bound)].insideOwnBody {
            variables[Int(bound)].accessedInOwnBody = true
        } else {
            variables[Int(bound)].accessed = true
        }
        variables[Int(bound)].readWhole = true
    }

    /// Chains that nest on their left (`a + b + c`, `o:m():m()`) are walked with a loop.
    mutating func leftChain(_ id: Int32) {
        let mark = chain.count
        var current = id
        while true {
            let kind = nodes[Int(current)].kind
            guard kind == .binary || kind == .index || kind == .call || kind == .methodCall else { break }
            chain.append(current)
            current = nodes[Int(current)].a
        }
        if nodes[Int(current)].kind == .name, chain.count > mark, let key = syntax.fieldKey(of: chain[chain.count - 1])
        {
            readField(current, key: key, isMethodCall: nodes[Int(chain[chain.count - 1])].kind == .methodCall)
        } else {
            expression(current)
        }
        while chain.count > mark {
            let link = chain.removeLast()
            let node = nodes[Int(link)]
            switch node.kind {
            case .binary:
                checkNegatedComparison(node)
                if node.op == BinaryOperator.and.rawValue || node.op == BinaryOperator.or.rawValue {
                    let saved = isTesting
                    isTesting = true
                    expression(node.b)
                    isTesting = saved
                } else {
                    expression(node.b)
                }
            case .index:
                // `math.pow or f`: the left operand of `and`/`or` is tested too.
                var tested = isTesting
                if let parent = chain.last, chain.count > mark {
                    let outer = nodes[Int(parent)]
                    tested =
                        tested
                        || (outer.kind == .binary && outer.a == link
                            && (outer.op == BinaryOperator.and.rawValue || outer.op == BinaryOperator.or.rawValue))
                }
                checkLibraryField(node, tested: tested)
                expression(node.b)
            case .call:
                noteCall(link)
                for index in Int(node.b)..<Int(node.b + node.c) { expression(lists[index]) }
            default:  // method call: the name, then the arguments
                noteCall(link)
                for index in Int(node.b + 1)..<Int(node.b + 1 + node.c) { expression(lists[index]) }
            }
        }
    }
}
