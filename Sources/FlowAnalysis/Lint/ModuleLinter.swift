import LuaSyntax

/// Walks a module's syntax tree once for luacheck's per-module warning classes, as a
/// `SyntaxVisitor` (LuaSyntax's one walk, with its one `ScopeTracker`): it keeps each local
/// variable's life (declared, set, read, mutated), the functions around each node and what the
/// module's table holds, and hands each node, each declaration, each variable's end and each
/// function's end to the rules that check them (`LintRuleList`: one file per rule under
/// `Lint/Rules`, its visit methods beside its code and message). Whitespace and line length
/// (6xx) are read from the bytes (`WhitespaceLint`), values' flow (3xx) by `ValueFlow`.
///
/// Reusable: `lint` starts from scratch and keeps its arrays.
struct ModuleLinter: KeepsExpressionStack {
    /// The chunk being walked: the parser's buffers, valid while `lint` runs.
    var tree = SyntaxBuffers(
        nodes: UnsafeBufferPointer(start: nil, count: 0), lists: UnsafeBufferPointer(start: nil, count: 0),
        symbols: SymbolTable(), root: 0)
    /// The chunk's names and strings, for the text of a finding.
    var symbols = SymbolTable()
    var source = UnsafeRawBufferPointer(start: nil, count: 0)
    /// Byte offset where each line starts (index 0 is line 1).
    var lineStarts: [Int] = []

    @inline(__always) var nodes: UnsafeBufferPointer<SyntaxNode> { tree.nodes }
    @inline(__always) var lists: UnsafeBufferPointer<Int32> { tree.lists }

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

    /// A name about to be declared (`LintDeclarations.swift`): pushed when its statement is
    /// visited, taken when the walk declares it, after the statement's values.
    struct PendingDeclaration {
        var name: Int32
        var kind: Kind
        var hasValue: Bool
        /// The value that initialises it (`local x = value`, a local function's body), or -1.
        var value: Int32 = -1
        /// A name of `local a, b = f()` that may be a "secondary", and how many names share the call.
        var grouped = false
        var groupCount: Int32 = 0
        /// The first name of its statement.
        var first = false
    }

    var variables: [Variable] = []
    /// Per symbol, the innermost variable of that name in scope (its index in `variables`), or -1:
    /// LuaSyntax's one scope tracker, which the walk keeps.
    var scopes = ScopeTracker()
    var scope: Int32 = 0
    var scopeCount: Int32 = 0
    var enclosingScopes: [Int32] = []
    var frames: [FunctionFrame] = []
    var functionCount: Int32 = 0
    /// The walk's stack for expressions, lent to it at each one.
    var expressionStack: [Int32] = []
    var pending: [PendingDeclaration] = []
    /// The variable of the `local` group being declared.
    var groupStart: Int32 = -1
    /// The name of `v.key` or `v:key()` whose read the field access has noted.
    var fieldBase: Int32 = -1
    /// Where `:` stands in `function a:b()`, for the function `b`'s implicit `self`.
    var methodFunction: Int32 = -1
    var colonPlace: (line: Int32, column: Int32) = (0, 0)
    /// Tested operands (`if`/`while` conditions, right operands of `and`/`or`): those about to
    /// be walked, innermost last, and the last node (`lastVisited(under:)`) of each being walked.
    var pendingTested: [Int32] = []
    var testedEnds: [Int32] = []
    /// The left operand of `and`/`or` when it is a field access (`math.pow or f`): tested too.
    var testedLeftOperand: Int32 = -1
    var environmentSymbol: Int32 = -1
    var underscoreSymbol: Int32 = -1
    var requireSymbol: Int32 = -1
    var selfSymbol: Int32 = -1
    /// The local the main chunk returns (`return M`), or -1.
    var returnedVariable: Int32 = -1
    var facts = LintFacts()
    /// The value-flow (311–341) and arity (FP482, FP483) passes' state, held by reference.
    let passes = LintPasses()
    /// `v.key = x` on a local: the variable, the key's symbol and its line.
    var fieldWriteLog: [(variable: Int32, key: Int32, line: Int32)] = []
    /// What the value-flow pass may leave out (ValueFlowReach.swift): each function's node and
    /// enclosing function by walk order (0 the main chunk), and each use of a local (read, set
    /// or filled) with the function it is in.
    var functionNodes: [Int32] = []
    var functionParents: [Int32] = []
    var uses: [(variable: Int32, function: Int32)] = []

    var currentFunction: Int32 { frames[frames.count - 1].id }

    /// Whether the node being visited is inside a tested operand (`if math.pow then`).
    @inline(__always) var isTesting: Bool { !testedEnds.isEmpty }

    /// The lint facts of a parsed chunk.
    mutating func lint(
        nodes: UnsafeBufferPointer<SyntaxNode>, lists: UnsafeBufferPointer<Int32>, symbols: SymbolTable,
        source: UnsafeRawBufferPointer, root: Int32
    ) -> LintFacts {
        tree = SyntaxBuffers(nodes: nodes, lists: lists, symbols: symbols, root: root)
        self.symbols = symbols
        self.source = source
        computeLineStarts()
        variables.removeAll(keepingCapacity: true)
        frames.removeAll(keepingCapacity: true)
        pending.removeAll(keepingCapacity: true)
        pendingTested.removeAll(keepingCapacity: true)
        testedEnds.removeAll(keepingCapacity: true)
        enclosingScopes.removeAll(keepingCapacity: true)
        scope = 0
        scopeCount = 0
        functionCount = 0
        returnedVariable = -1
        fieldBase = -1
        methodFunction = -1
        testedLeftOperand = -1
        fieldWriteLog.removeAll(keepingCapacity: true)
        functionNodes.removeAll(keepingCapacity: true)
        functionParents.removeAll(keepingCapacity: true)
        uses.removeAll(keepingCapacity: true)
        functionNodes.append(-1)
        functionParents.append(-1)
        facts = LintFacts()
        environmentSymbol = symbols.symbol(of: "_ENV") ?? -1
        underscoreSymbol = symbols.symbol(of: "_") ?? -1
        requireSymbol = symbols.symbol(of: "require") ?? -1
        selfSymbol = symbols.symbol(of: "self") ?? -1

        frames.append(FunctionFrame(id: 0))
        walkChunk()
        finishFunction()
        finishModuleFields()
        finishArity()
        if variables.contains(where: \.assigned) {
            let skipped = functionsValueFlowSkips()
            facts.findings += passes.valueFlow.check(
                nodes: nodes, lists: lists, symbols: symbols, root: root, skipped: skipped)
        }
        WhitespaceLint.check(source, into: &facts.findings)

        let result = facts
        tree = SyntaxBuffers(
            nodes: UnsafeBufferPointer(start: nil, count: 0), lists: UnsafeBufferPointer(start: nil, count: 0),
            symbols: SymbolTable(), root: 0)
        self.symbols = SymbolTable()
        self.source = UnsafeRawBufferPointer(start: nil, count: 0)
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
            // Eight bytes at a time up to the next line break (most of a line is none).
            if index + 8 <= count {
                let skip = ByteWord.beforeLineBreak(UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self))
                index += skip
                if skip == 8 { continue }
            }
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

    @inline(__always) func text(_ symbol: Int32) -> String { symbols.text(of: symbol) }

    /// Declares a variable for the walk to put in scope, after noting what it redefines or shadows.
    mutating func newVariable(_ symbol: Int32, kind: Kind, line: Int32, column: Int32, hasValue: Bool) -> Int32 {
        let previous = symbol >= 0 ? scopes.binding(of: symbol) : -1
        if previous >= 0, symbol != underscoreSymbol {
            let earlier = variables[Int(previous)]
            LintRuleList.declared(symbol, line: line, column: column, hiding: earlier, in: &self)
        }
        let index = Int32(variables.count)
        variables.append(
            Variable(
                symbol: symbol, kind: kind, line: line, column: column, function: currentFunction, scope: scope,
                hasValue: hasValue))
        return index
    }

    /// Where a declaration hiding `earlier` stands: the same scope, the same function, or a
    /// function inside the one that declared `earlier` (it hides an upvalue).
    func placement(of earlier: Variable) -> ShadowPlacement {
        if earlier.scope == scope { return .sameScope }
        return earlier.function == currentFunction ? .sameFunction : .upvalue
    }

    /// Whether `symbol` names a global here: no local of that name nor a local `_ENV` in scope.
    @inline(__always) func isGlobal(_ symbol: Int32) -> Bool {
        scopes.binding(of: symbol) < 0 && (environmentSymbol < 0 || scopes.binding(of: environmentSymbol) < 0)
            && symbol != environmentSymbol
    }

    /// Whether `symbol` is a free name here, a global as luacheck's 1xx classes see one: no local
    /// of that name in scope, whatever `_ENV` holds (see `LintRules.check`).
    @inline(__always) func isFreeName(_ symbol: Int32) -> Bool {
        scopes.binding(of: symbol) < 0 && symbol != environmentSymbol
    }
}

/// Where a declaration stands against the one of the same name it hides (luacheck's 41x, 42x, 43x).
enum ShadowPlacement { case sameScope, sameFunction, upvalue }
