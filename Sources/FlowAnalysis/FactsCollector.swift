import LuaSyntax

/// Walks a syntax tree once, keeping a count of local bindings per symbol so a name with
/// none in scope is known to be a global.
///
/// Reusable: `collect` starts from scratch each time but keeps the memory of its arrays, and
/// makes a `String` only for the names and literals the facts keep.
struct FactsCollector {
    /// The tree being walked, while collecting: node ids from the parser are always in range.
    private(set) var nodes = UnsafeBufferPointer<SyntaxNode>(start: nil, count: 0)
    private(set) var lists = UnsafeBufferPointer<Int32>(start: nil, count: 0)
    /// The chunk's symbols, while collecting.
    private var symbols: SymbolTable?
    /// Per symbol: how many locals of that name are in scope.
    var bound = ParseBuffer<Int32>(capacity: 1024)
    /// Symbols declared, innermost last, so leaving a scope unbinds them.
    var declared = ParseBuffer<Int32>()
    /// Links of left-nested chains being walked (see `leftChain`).
    var chain = ParseBuffer<Int32>()
    var functionDepth = 0
    /// How many enclosing branches, loop bodies or `and`/`or` right operands may skip the code being walked.
    var conditionalDepth = 0
    var literal = ParseBuffer<Bool>(capacity: 1024)
    var facts = ModuleFacts()

    var requireSymbol: Int32 = -1
    var pcallSymbol: Int32 = -1
    var xpcallSymbol: Int32 = -1
    var getResourceSymbol: Int32 = -1
    var environmentSymbol: Int32 = -1
    var selfSymbol: Int32 = -1
    var globalTableSymbol: Int32 = -1
    var rawsetSymbol: Int32 = -1
    var typeSymbol: Int32 = -1
    var setfenvSymbol: Int32 = -1
    var moduleSymbol: Int32 = -1
    var packageSymbol: Int32 = -1
    var tableSymbol: Int32 = -1
    /// The symbols of `Environment.legacyGlobals` this chunk mentions (usually none).
    var legacySymbols: [Int32] = []

    /// The facts of the chunk whose tree is `nodes` and `lists`, starting at its top-level `block` `root`.
    mutating func collect(
        nodes: UnsafeBufferPointer<SyntaxNode>, lists: UnsafeBufferPointer<Int32>, symbols: SymbolTable,
        root: Int32, collectsStringLiterals: Bool = true
    ) -> ModuleFacts {
        self.nodes = nodes
        self.lists = lists
        self.symbols = symbols
        bound.removeAll()
        bound.append(repeating: 0, count: symbols.count)
        literal.removeAll()
        literal.append(repeating: false, count: symbols.count)
        declared.removeAll()
        chain.removeAll()
        functionDepth = 0
        conditionalDepth = 0
        facts = ModuleFacts()
        requireSymbol = symbols.symbol(of: "require") ?? -1
        pcallSymbol = symbols.symbol(of: "pcall") ?? -1
        xpcallSymbol = symbols.symbol(of: "xpcall") ?? -1
        getResourceSymbol = symbols.symbol(of: "getResource") ?? -1
        environmentSymbol = symbols.symbol(of: "_ENV") ?? -1
        selfSymbol = symbols.symbol(of: "self") ?? -1
        globalTableSymbol = symbols.symbol(of: "_G") ?? -1
        rawsetSymbol = symbols.symbol(of: "rawset") ?? -1
        typeSymbol = symbols.symbol(of: "type") ?? -1
        setfenvSymbol = symbols.symbol(of: "setfenv") ?? -1
        moduleSymbol = symbols.symbol(of: "module") ?? -1
        packageSymbol = symbols.symbol(of: "package") ?? -1
        tableSymbol = symbols.symbol(of: "table") ?? -1
        legacySymbols.removeAll(keepingCapacity: true)
        for name in Environment.legacyGlobals.keys {
            if let symbol = symbols.symbol(of: name) { legacySymbols.append(symbol) }
        }

        block(root)
        if collectsStringLiterals {
            // Sized once: growing a Set rehashes every String already in it.
            facts.stringLiterals.reserveCapacity(literal.elements.reduce(0) { $0 + ($1 ? 1 : 0) })
            for (symbol, isLiteral) in literal.elements.enumerated() where isLiteral {
                facts.stringLiterals.insert(symbols.text(of: Int32(symbol)))
            }
        }
        let result = facts
        // Let go of the caller's tree and symbols: they change with its next chunk.
        self.nodes = UnsafeBufferPointer(start: nil, count: 0)
        self.lists = UnsafeBufferPointer(start: nil, count: 0)
        self.symbols = nil
        facts = ModuleFacts()
        return result
    }

    /// The text of a symbol of the chunk being walked.
    @inline(__always) func text(_ symbol: Int32) -> String { symbols.unsafelyUnwrapped.text(of: symbol) }

    // MARK: Scopes

    /// Whether a name refers to a global: no local of that name, and no local `_ENV`, in scope.
    @inline(__always) func isGlobal(_ symbol: Int32) -> Bool {
        bound[Int(symbol)] == 0 && (environmentSymbol < 0 || bound[Int(environmentSymbol)] == 0)
            && symbol != environmentSymbol
    }

    @inline(__always) mutating func declare(_ symbol: Int32) {
        bound[Int(symbol)] += 1
        declared.append(symbol)
    }

    @inline(__always) mutating func leaveScope(to mark: Int) {
        while declared.count > mark { bound[Int(declared.removeLast())] -= 1 }
    }

    // MARK: Statements

    mutating func block(_ id: Int32) {
        let mark = declared.count
        statements(of: id)
        leaveScope(to: mark)
    }

    /// A block's statements without opening a scope (the caller owns it).
    mutating func statements(of id: Int32) {
        let node = nodes[Int(id)]
        for index in Int(node.a)..<Int(node.a + node.b) { statement(lists[index]) }
    }

    mutating func statement(_ id: Int32) {
        let node = nodes[Int(id)]
        switch node.kind {
        case .local:
            let names = Int(node.a)..<Int(node.a + node.b)
            for index in names.upperBound..<(names.upperBound + Int(node.c)) { expression(lists[index]) }
            for index in names {
                let symbol = nodes[Int(lists[index])].a
                // `local setfenv = setfenv`: keeping a global that may be missing, to test it later.
                let valueIndex = index + Int(node.b)
                if valueIndex < names.upperBound + Int(node.c), nodes[Int(lists[valueIndex])].kind == .name,
                    nodes[Int(lists[valueIndex])].a == symbol, isGlobal(symbol)
                {
                    facts.guardedGlobals.insert(text(symbol))
                }
                if symbol == environmentSymbol { facts.replacesEnvironment = true }
                declare(symbol)
            }
        case .assignment:
            let targets = Int(node.a)..<Int(node.a + node.b)
            for index in targets.upperBound..<(targets.upperBound + Int(node.c)) { expression(lists[index]) }
            for index in targets { assign(to: lists[index]) }
        case .callStatement:
            expression(node.a)
        case .doBlock:
            block(node.a)
        case .whileLoop:
            expression(node.a)
            noteGuard(node.a, allowsNot: true)
            conditional { $0.block(node.b) }
        case .repeatLoop:
            // The condition sees the body's locals.
            let mark = declared.count
            statements(of: node.a)
            expression(node.b)
            leaveScope(to: mark)
        case .ifStatement:
            // Only the first condition surely runs.
            expression(lists[Int(node.a)])
            noteGuard(lists[Int(node.a)], allowsNot: true)
            conditional { walker in
                for pair in 0..<Int(node.b) {
                    if pair > 0 {
                        walker.expression(walker.lists[Int(node.a) + pair * 2])
                        walker.noteGuard(walker.lists[Int(node.a) + pair * 2], allowsNot: true)
                    }
                    walker.block(walker.lists[Int(node.a) + pair * 2 + 1])
                }
                if node.c >= 0 { walker.block(node.c) }
            }
        case .numericFor:
            for index in Int(node.a + 1)..<Int(node.a + node.b) { expression(lists[index]) }
            let mark = declared.count
            declare(nodes[Int(lists[Int(node.a)])].a)
            conditional { $0.block(node.c) }
            leaveScope(to: mark)
        case .genericFor:
            let names = Int(node.a)..<Int(node.a + node.b)
            let expressions = names.upperBound..<(names.upperBound + Int(node.c))
            for index in expressions { expression(lists[index]) }
            let mark = declared.count
            for index in names { declare(nodes[Int(lists[index])].a) }
            conditional { $0.block($0.lists[expressions.upperBound]) }
            leaveScope(to: mark)
        case .functionStatement:
            // `function x()` assigns x; `function x.y()` reads x and assigns a field.
            assign(to: node.a)
            function(node.b)
        case .localFunction:
            declare(nodes[Int(node.a)].a)  // in scope inside its own body: it may recurse
            function(node.b)
        case .returnStatement:
            for index in Int(node.a)..<Int(node.a + node.b) { expression(lists[index]) }
        default:
            break
        }
    }

    /// Walks `body` as code that may not run.
    @inline(__always) mutating func conditional(_ body: (inout FactsCollector) -> Void) {
        conditionalDepth += 1
        body(&self)
        conditionalDepth -= 1
    }

    mutating func assign(to target: Int32) {
        let node = nodes[Int(target)]
        if node.kind == .name {
            if node.a == environmentSymbol { facts.replacesEnvironment = true }
            if isGlobal(node.a) { recordGlobalWrite(text(node.a), at: node.location) }
        } else {
            // `_G.name = v`, `_G["name"] = v`, `function _G.name()`, and the same through `_ENV`.
            if node.kind == .index, isGlobalTable(node.a), let name = literalOrFieldName(node.b) {
                recordGlobalWrite(name, at: nodes[Int(node.b)].location)
                facts.explicitGlobalWrites.insert(name)
            }
            // `package.path = dir .. "?.lua;" .. package.path`: require may then find any name
            // there (in the project's own files), as after a searcher of the program's own.
            if packageField(target) == "path" { facts.addsSearcher = true }
            // `package.preload["x"] = f`, `package.loaded.x = v`: modules made at run time.
            if node.kind == .index, let field = packageField(node.a) {
                if field == "preload" || field == "loaded" {
                    if let name = literalOrFieldName(node.b) {
                        facts.registeredModules.insert(name)
                    } else {
                        facts.addsSearcher = true
                    }
                } else if field == "searchers" {
                    facts.addsSearcher = true
                }
            }
            // `x.y = v` and `x.y.z = v` mutate the global x (luacheck's 112), they do not read it (113).
            var base = node.a
            while node.kind == .index, nodes[Int(base)].kind == .index {
                expression(nodes[Int(base)].b)
                base = nodes[Int(base)].a
            }
            if node.kind != .index || nodes[Int(base)].kind != .name { expression(base) }
            expression(node.b)
        }
    }

    /// Notes a global this module assigns, and where it is first assigned.
    @inline(__always) mutating func recordGlobalWrite(_ name: String, at location: SourceLocation) {
        if facts.globalWrites.insert(name).inserted { facts.globalWriteLocations[name] = location }
    }

    /// Whether `id` is the globals table itself: the global `_G`, or `_ENV` while it is the chunk's.
    @inline(__always) func isGlobalTable(_ id: Int32) -> Bool {
        let node = nodes[Int(id)]
        guard node.kind == .name else { return false }
        if node.a == globalTableSymbol { return isGlobal(node.a) }
        return node.a == environmentSymbol && environmentSymbol >= 0 && bound[Int(environmentSymbol)] == 0
    }

    /// `F` when `id` is `package.F` (or `package["F"]`) of the global `package`.
    func packageField(_ id: Int32) -> String? {
        let node = nodes[Int(id)]
        guard node.kind == .index, isGlobalName(node.a, packageSymbol) else { return nil }
        return literalOrFieldName(node.b)
    }

    /// The string a key expression stands for: a literal, or the name of `t.name`.
    @inline(__always) func literalOrFieldName(_ id: Int32) -> String? {
        let node = nodes[Int(id)]
        return node.kind == .string ? text(node.a) : nil
    }

    /// Notes the globals an expression tests for being there (`x`, `x == nil`, `type(x)`, an
    /// operand of `and`/`or`, and in a condition `not x`): code that asks first whether a global
    /// exists (`local unpack = table.unpack or unpack`, `if setfenv then ... end`) is portable
    /// code, not a typo. Bounded: a guard is a short expression.
    mutating func noteGuard(_ id: Int32, allowsNot: Bool = false, depth: Int = 0) {
        guard depth < 8 else { return }
        let node = nodes[Int(id)]
        switch node.kind {
        case .name:
            if isGlobal(node.a) { facts.guardedGlobals.insert(text(node.a)) }
        case .paren:
            noteGuard(node.a, allowsNot: allowsNot, depth: depth + 1)
        case .unary where node.op == UnaryOperator.not.rawValue && allowsNot:
            // Only as a condition: `local skip = not file and x` reads a never-defined `file`.
            noteGuard(node.a, allowsNot: allowsNot, depth: depth + 1)
        case .binary:
            if node.op == BinaryOperator.and.rawValue || node.op == BinaryOperator.or.rawValue {
                noteGuard(node.a, allowsNot: allowsNot, depth: depth + 1)
                noteGuard(node.b, allowsNot: allowsNot, depth: depth + 1)
            } else if node.op == BinaryOperator.equal.rawValue || node.op == BinaryOperator.notEqual.rawValue {
                if nodes[Int(node.b)].kind == .nilLiteral { noteGuard(node.a, depth: depth + 1) }
                if nodes[Int(node.a)].kind == .nilLiteral { noteGuard(node.b, depth: depth + 1) }
                // `type(x) == "function"`
                if nodes[Int(node.a)].kind == .call { noteGuard(node.a, depth: depth + 1) }
            }
        case .call:
            if node.c == 1, isGlobalName(node.a, typeSymbol) { noteGuard(lists[Int(node.b)], depth: depth + 1) }
        default:
            break
        }
    }

    mutating func function(_ id: Int32) {
        let node = nodes[Int(id)]
        functionDepth += 1
        let mark = declared.count
        if node.op & 2 != 0 && selfSymbol >= 0 { declare(selfSymbol) }
        for index in Int(node.a)..<Int(node.a + node.b) { declare(nodes[Int(lists[index])].a) }
        statements(of: node.c)
        leaveScope(to: mark)
        functionDepth -= 1
    }

    // MARK: Expressions

    mutating func expression(_ id: Int32) {
        let node = nodes[Int(id)]
        switch node.kind {
        case .name:
            // A free name under a local `_ENV` is read from that table; luacheck's 113 (FP405)
            // still counts it a global, as the 1xx lint classes do (see `LintRules.check`).
            if bound[Int(node.a)] == 0, node.a != environmentSymbol {
                // Lua 5.1 and LuaJIT names in code that may not run (`if _VERSION == "Lua 5.1"
                // then setfenv(...)`) are compatibility code; read unconditionally, they are reported.
                if conditionalDepth > 0, !legacySymbols.isEmpty, legacySymbols.contains(node.a) { return }
                facts.globalReads.append(ModuleFacts.GlobalRead(name: text(node.a), location: node.location))
            }
        case .string:
            if node.op == 0 { literal[Int(node.a)] = true }
        case .binary, .index, .call, .methodCall:
            leftChain(id)
        case .unary, .paren, .positionalField:
            expression(node.a)
        case .keyedField:
            expression(node.a)
            expression(node.b)
        case .function:
            function(id)
        case .table:
            for index in Int(node.a)..<Int(node.a + node.b) { expression(lists[index]) }
        default:
            break
        }
    }

    /// Binary operators, indexing and calls nest on their left without bound (`a + b + c ...`,
    /// `o:m():m() ...` are valid at any length): walk such chains with a loop, not recursion.
    mutating func leftChain(_ id: Int32) {
        let mark = chain.count
        var current = id
        while true {
            let kind = nodes[Int(current)].kind
            guard kind == .binary || kind == .index || kind == .call || kind == .methodCall else { break }
            chain.append(current)
            current = nodes[Int(current)].a
        }
        expression(current)
        while chain.count > mark {
            let link = chain.removeLast()
            let node = nodes[Int(link)]
            switch node.kind {
            case .binary:
                if node.op == BinaryOperator.and.rawValue || node.op == BinaryOperator.or.rawValue {
                    noteGuard(node.a)
                    noteGuard(node.b)
                    conditional { $0.expression(node.b) }
                } else {
                    expression(node.b)
                }
            case .index:
                expression(node.b)
            case .call:
                recordCall(node)
                for index in Int(node.b)..<Int(node.b + node.c) { expression(lists[index]) }
            default:  // method call: the name, then the arguments
                for index in Int(node.b + 1)..<Int(node.b + 1 + node.c) { expression(lists[index]) }
            }
        }
    }

    /// The literal string value of an argument, when it is one.
    @inline(__always) func literalString(_ id: Int32) -> String? {
        let node = nodes[Int(id)]
        return node.kind == .string && node.op == 0 ? text(node.a) : nil
    }

    @inline(__always) func isGlobalName(_ id: Int32, _ symbol: Int32) -> Bool {
        let node = nodes[Int(id)]
        return symbol >= 0 && node.kind == .name && node.a == symbol && isGlobal(symbol)
    }

    /// Records `require "x"`, `pcall(require, "x")`, `xpcall(require, h, "x")` and `getResource("n", "t")`.
    mutating func recordCall(_ call: SyntaxNode) {
        let callee = nodes[Int(call.a)]
        if callee.kind == .index, call.c > 0, isGlobalName(callee.a, tableSymbol),
            literalOrFieldName(callee.b) == "insert", packageField(lists[Int(call.b)]) == "searchers"
        {
            // `table.insert(package.searchers, f)`: a searcher of the program's own.
            facts.addsSearcher = true
        }
        guard callee.kind == .name, call.c > 0 else { return }
        let first = Int(call.b)
        if isGlobalName(call.a, moduleSymbol)
            || (isGlobalName(call.a, setfenvSymbol) && nodes[Int(lists[first])].kind == .number)
        {
            // Lua 5.1's environments (`module(...)`, `setfenv(1, M)`, a stack level): the module's
            // own free names are no longer the globals. `setfenv(f, env)` changes another function's.
            facts.replacesEnvironment = true
            return
        }
        if isGlobalName(call.a, rawsetSymbol) {
            if call.c >= 2, isGlobalTable(lists[first]), let name = literalString(lists[first + 1]) {
                facts.globalWrites.insert(name)
                facts.explicitGlobalWrites.insert(name)
            }
            return
        }
        let inside = functionDepth > 0
        let conditional = conditionalDepth > 0
        if isGlobalName(call.a, requireSymbol) {
            if let module = literalString(lists[first]) {
                facts.requires.append(
                    .init(
                        module: module, location: callee.location, isInsideFunction: inside,
                        isConditional: conditional))
            }
        } else if isGlobalName(call.a, pcallSymbol) || isGlobalName(call.a, xpcallSymbol) {
            let nameIndex = callee.a == pcallSymbol ? 1 : 2
            guard call.c > nameIndex, isGlobalName(lists[first], requireSymbol),
                let module = literalString(lists[first + nameIndex])
            else { return }
            let location = nodes[Int(lists[first])].location
            facts.requires.append(
                .init(
                    module: module, location: location, isInsideFunction: inside, isProtected: true,
                    isConditional: conditional))
        } else if isGlobalName(call.a, getResourceSymbol) {
            guard call.c >= 2, let name = literalString(lists[first]), let type = literalString(lists[first + 1]) else {
                return
            }
            facts.resourceUses.append(
                .init(
                    name: name, type: type, location: callee.location, isInsideFunction: inside,
                    isConditional: conditional))
        }
    }
}
