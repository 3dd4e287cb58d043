import LuaSyntax

/// Walks a syntax tree once, keeping the locals in scope (a `ScopeTracker`) so a name with
/// none in scope is known to be a global.
///
/// Reusable: `collect` starts from scratch each time but keeps the memory of its arrays, and
/// makes a `String` only for the names and literals the facts keep. Statements are walked in
/// FactsCollector+Statements.swift, expressions in FactsCollector+Expressions.swift, as
/// LuaParser is split.
struct FactsCollector {
    /// The tree being walked, while collecting: node ids from the parser are always in range.
    private(set) var nodes = UnsafeBufferPointer<SyntaxNode>(start: nil, count: 0)
    private(set) var lists = UnsafeBufferPointer<Int32>(start: nil, count: 0)
    /// The chunk's symbols, while collecting.
    private var symbols: SymbolTable?
    /// Which names are locals here (LuaSyntax's one scope tracker; every declaration's id is 0).
    var scopes = ScopeTracker()
    /// Links of left-nested chains being walked (see `leftChain`).
    var chain = ParseBuffer<Int32>()
    var functionDepth = 0
    /// How many enclosing branches, loop bodies or `and`/`or` right operands may skip the code being walked.
    var conditionalDepth = 0
    /// How many enclosing branches are guarded by a version test (`if _VERSION == "Lua 5.1"`,
    /// `if setfenv then`, the right of `table.unpack or unpack`): Lua 5.1 names there are portable code.
    var versionGuardDepth = 0
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
        scopes.reset(symbolCount: symbols.count)
        literal.removeAll()
        literal.append(repeating: false, count: symbols.count)
        chain.removeAll()
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
        !scopes.isBound(symbol) && (environmentSymbol < 0 || !scopes.isBound(environmentSymbol))
            && symbol != environmentSymbol
    }

    @inline(__always) mutating func declare(_ symbol: Int32) {
        scopes.declare(symbol, as: 0)
    }

    @inline(__always) mutating func leaveScope(to mark: Int) {
        scopes.leave(to: mark)
    }
}
