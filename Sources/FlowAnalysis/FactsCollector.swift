import LuaSyntax

/// Walks a syntax tree once for a module's facts (its requires, resources, globals read and
/// written, guards), as a `SyntaxVisitor`: LuaSyntax's one walk with its one `ScopeTracker`
/// tells a global (no local of its name in scope) from a local.
///
/// Reusable: `collect` starts from scratch each time but keeps the memory of its arrays, and
/// makes a `String` only for the names and literals the facts keep. Statements are visited in
/// FactsCollector+Statements.swift, expressions in FactsCollector+Expressions.swift.
struct FactsCollector: KeepsExpressionStack {
    /// The chunk being walked: the parser's buffers, valid while `collect` runs.
    var tree = SyntaxBuffers(
        nodes: UnsafeBufferPointer(start: nil, count: 0), lists: UnsafeBufferPointer(start: nil, count: 0),
        symbols: SymbolTable(), root: 0)
    /// The chunk's symbols, while collecting.
    private var symbols: SymbolTable?
    /// Which names are locals here (every declaration's id is 0).
    var scopes = ScopeTracker()
    /// The walk's stack for expressions, lent to it at each one.
    var expressionStack: [Int32] = []
    var functionDepth = 0
    /// How many enclosing branches, loop bodies or `and`/`or` right operands may skip the code being walked.
    var conditionalDepth = 0
    /// How many enclosing branches are guarded by a version test (`if _VERSION == "Lua 5.1"`,
    /// `if setfenv then`, the right of `table.unpack or unpack`): Lua 5.1 names there are portable code.
    var versionGuardDepth = 0
    /// Right operands of `and`/`or` about to be walked (innermost last), each with whether a
    /// version test guards it, and the last node (`lastVisited(under:)`) of each being walked:
    /// code that may not run, without a post-visit of each expression.
    var pendingOperands: [(id: Int32, isVersionGuarded: Bool)] = []
    var operandEnds: [(end: Int32, isVersionGuarded: Bool)] = []
    var literal = ParseBuffer<Bool>(capacity: 1024)
    var facts = ModuleFacts()

    @inline(__always) var nodes: UnsafeBufferPointer<SyntaxNode> { tree.nodes }
    @inline(__always) var lists: UnsafeBufferPointer<Int32> { tree.lists }

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
        tree = SyntaxBuffers(nodes: nodes, lists: lists, symbols: symbols, root: root)
        self.symbols = symbols
        literal.removeAll()
        literal.append(repeating: false, count: symbols.count)
        pendingOperands.removeAll(keepingCapacity: true)
        operandEnds.removeAll(keepingCapacity: true)
        functionDepth = 0
        conditionalDepth = 0
        versionGuardDepth = 0
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

        walkChunk()
        if collectsStringLiterals {
            // Sized once: growing a Set rehashes every String already in it.
            facts.stringLiterals.reserveCapacity(literal.elements.reduce(0) { $0 + ($1 ? 1 : 0) })
            for (symbol, isLiteral) in literal.elements.enumerated() where isLiteral {
                facts.stringLiterals.insert(symbols.text(of: Int32(symbol)))
            }
        }
        let result = facts
        // Let go of the caller's symbols (the tree's buffers, plain pointers, are not read again).
        self.symbols = nil
        facts = ModuleFacts()
        return result
    }

    /// The text of a symbol of the chunk being walked.
    @inline(__always) func text(_ symbol: Int32) -> String { symbols.unsafelyUnwrapped.text(of: symbol) }

    // MARK: Scopes

    /// Whether a name refers to a global: no local of that name, and no local `_ENV`, in scope.
    @inline(__always) func isGlobal(_ symbol: Int32) -> Bool {
        !scopes.isBound(symbol) && (environmentSymbol < 0 || !scopes.isBound(environmentSymbol))
            && symbol != environmentSymbol
    }

    // MARK: The walk's hooks

    /// Every local is declared with the id 0: the facts ask only whether a name is bound.
    func declaration(of localName: Int32, _ node: SyntaxNode) -> Int32 { 0 }
    func implicitSelf(of function: Int32) -> Int32? { 0 }

    /// No post-visit of expressions: an operand's end is known from its last node.
    static var visitsExpressionsAfterChildren: Bool { false }

    mutating func visit(_ id: Int32, _ node: SyntaxNode) -> SyntaxVisitorContinueKind {
        if let operand = pendingOperands.last, operand.id == id {
            pendingOperands.removeLast()
            conditionalDepth += 1
            if operand.isVersionGuarded { versionGuardDepth += 1 }
            operandEnds.append((lastVisited(under: id), operand.isVersionGuarded))
        }
        if node.kind.rawValue <= SyntaxKind.keyedField.rawValue {
            visitExpression(id, node)
            // An operand's walk ends at its last node (a function's, after its body).
            if node.kind != .function { leaveOperands(at: id) }
            return .visitChildren
        }
        return visitStatement(id, node)
    }

    mutating func visitPost(_ id: Int32, _ node: SyntaxNode) {
        if node.kind == .function {
            functionDepth -= 1
            leaveOperands(at: id)
        }
    }

    /// Ends the operands whose walk ends at `id` (nested ones may end at the same node).
    @inline(__always) mutating func leaveOperands(at id: Int32) {
        while let operand = operandEnds.last, operand.end == id {
            operandEnds.removeLast()
            conditionalDepth -= 1
            if operand.isVersionGuarded { versionGuardDepth -= 1 }
        }
    }
}
