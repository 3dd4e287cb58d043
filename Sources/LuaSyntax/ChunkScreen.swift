/// The checks Lua 5.4's compiler makes beyond the grammar (`lparser.c`, `lcode.c`), over a
/// parsed chunk: `goto` and labels, `break` outside a loop, assignments to `<const>` and
/// `<close>` variables, and the compiler's limits.
///
/// Labels and gotos follow Lua's own bookkeeping (a label visible in enclosing blocks of the
/// function, a pending goto solved only by a label of its block, a label that ends its block
/// outside the scope of the block's locals). The limits are screened with conservative bounds,
/// well inside Lua's: a chunk near one goes to Lua's compiler. `check` returns why a chunk
/// must go to Lua, or nil when Lua certainly compiles it.
///
/// Not a `SyntaxVisitor` (issue 44), though it keeps the one `ScopeTracker`: it computes the
/// registers each expression needs bottom up (a count each child returns to its parent, combined
/// by its position in a list or an assignment), notes the locals active between one statement and
/// the next (where a label or a pending goto stands), and stops at the first refusal with a typed
/// throw out of the walk. The visitor's hooks before and after a node give none of the three.
package struct ChunkScreen {
    /// Nesting (statements, expressions, assignment targets) past which Lua decides. Lua: 200.
    static let maximumDepth = 150
    /// Registers one function may need. Lua: 254 ("needs too many registers").
    static let maximumRegisters = 200
    /// Locals active at once in one function, its loops' hidden ones included. Lua: 200.
    static let maximumActiveLocals = 180
    /// Locals of the enclosing functions, which a function may capture. Lua: 255 upvalues.
    static let maximumCapturable = 200
    /// Syntax nodes in one `for` body, at most 8 instructions each. Lua: 131,071 instructions.
    static let maximumLoopBodyNodes = 16_000
    /// Syntax nodes in one function. Lua: jumps of ±16M instructions, 33M constants.
    static let maximumFunctionNodes = 1_000_000
    /// Locals declared in one function, in all its blocks. Lua: 32,767.
    static let maximumDeclaredLocals = 30_000
    /// Functions defined directly inside one function. Lua: 131,071.
    static let maximumClosures = 100_000
    /// Labels visible plus gotos pending, in the whole chunk. Lua: 32,767.
    static let maximumLabels = 30_000
    /// Lua stores a constructor's positional items in registers, 50 at a time.
    static let itemsPerFlush = 50

    struct Refusal: Error {
        var reason: String
    }

    /// The function being screened.
    struct FunctionState {
        var active = 0
        var declared = 0
        var closures = 0
        var nodes = 0
        var loopDepth = 0
        /// Where this function's labels start in `labels`.
        var labelStart = 0
    }

    struct Label {
        var symbol: Int32
        /// The locals active at the label (or at the goto).
        var level: Int
    }

    let nodes: UnsafeBufferPointer<SyntaxNode>
    let lists: UnsafeBufferPointer<Int32>
    /// Whether the chunk declares `<const>` or `<close>` locals: then names are resolved.
    let tracksConstants: Bool
    var function = FunctionState()
    /// Locals active in the enclosing functions.
    var enclosingActive = 0
    var labels: [Label] = []
    var gotos: [Label] = []
    /// Every local in scope, its id 1 when it is read-only (0 otherwise), only when `tracksConstants`.
    var scope = ScopeTracker()

    /// A screen of the tree in `nodes` and `lists`; `constantsAmong` is the chunk's symbol count
    /// when it declares `<const>` or `<close>` locals (then names are resolved), nil when not.
    init(nodes: UnsafeBufferPointer<SyntaxNode>, lists: UnsafeBufferPointer<Int32>, constantsAmong symbolCount: Int?) {
        self.nodes = nodes
        self.lists = lists
        tracksConstants = symbolCount != nil
        if let symbolCount { scope.reset(symbolCount: symbolCount) }
    }

    /// Why Lua's compiler must decide on the chunk whose main block is `root`, or nil.
    mutating func check(root: Int32) -> String? {
        do throws(Refusal) {
            try visitBlock(root, isFunctionBody: true)
            try checkFunctionSize()
            return nil
        } catch {
            return error.reason
        }
    }

    @inline(__always) func node(_ id: Int32) -> SyntaxNode { nodes[Int(id)] }
    @inline(__always) func item(_ start: Int32, _ offset: Int) -> Int32 { lists[Int(start) + offset] }

    // MARK: Functions and blocks

    mutating func visitFunction(_ id: Int32) throws(Refusal) {
        let function = node(id)
        self.function.closures += 1
        if self.function.closures > Self.maximumClosures { throw Refusal(reason: "too many functions in one function") }
        let outer = self.function
        enclosingActive += outer.active
        if enclosingActive + 1 > Self.maximumCapturable {
            throw Refusal(reason: "a function sees \(enclosingActive) outer locals, near Lua's limit of 255 upvalues")
        }
        self.function = FunctionState(labelStart: labels.count)
        let scopeMark = scope.mark
        let parameters = Int(function.b) + (function.op & 2 != 0 ? 1 : 0)
        for index in 0..<Int(function.b) { declare(node(item(function.a, index))) }
        self.function.active = parameters
        self.function.declared = parameters
        try checkActive(adding: 0)
        try visitBlock(function.c, isFunctionBody: true)
        try checkFunctionSize()
        scope.leave(to: scopeMark)
        enclosingActive -= outer.active
        self.function = outer
    }

    func checkFunctionSize() throws(Refusal) {
        if function.nodes > Self.maximumFunctionNodes { throw Refusal(reason: "a function too long to screen") }
        if function.declared > Self.maximumDeclaredLocals {
            throw Refusal(reason: "too many locals declared in one function")
        }
    }

    /// A block; `endsWithUntil` for a `repeat` body, whose `until` condition (`condition`)
    /// sees its locals.
    mutating func visitBlock(
        _ id: Int32, isFunctionBody: Bool = false, endsWithUntil: Bool = false, condition: Int32 = -1
    ) throws(Refusal) {
        let block = node(id)
        function.nodes += 1
        let entryActive = function.active
        let labelMark = labels.count
        let gotoMark = gotos.count
        let scopeMark = scope.mark
        let count = Int(block.b)
        var index = 0
        while index < count {
            let statement = node(item(block.a, index))
            if statement.kind == .label {
                // Labels in a row (only `;` between them) stand at one place; when nothing but
                // the block's end follows, the block's locals are out of scope there.
                var end = index
                while end < count, node(item(block.a, end)).kind == .label { end += 1 }
                let isLast = end == count && !endsWithUntil
                for labelIndex in index..<end {
                    function.nodes += 1
                    try addLabel(
                        node(item(block.a, labelIndex)).a, level: isLast ? entryActive : function.active,
                        pendingFrom: gotoMark)
                }
                index = end
                continue
            }
            let before = function.active
            let gotoStart = gotos.count
            try visitStatement(statement)
            // Gotos still pending from the statement's inner blocks now stand where it started.
            for pending in gotoStart..<gotos.count where gotos[pending].level > before {
                gotos[pending].level = before
            }
            index += 1
        }
        if condition >= 0 { try checkRegisters(need(condition)) }
        labels.removeSubrange(labelMark...)
        function.active = entryActive
        scope.leave(to: scopeMark)
        for pending in gotoMark..<gotos.count where gotos[pending].level > entryActive {
            gotos[pending].level = entryActive
        }
        if isFunctionBody && gotos.count > gotoMark {
            throw Refusal(reason: "no visible label for a goto")
        }
    }

    mutating func addLabel(_ symbol: Int32, level: Int, pendingFrom gotoMark: Int) throws(Refusal) {
        if labels[function.labelStart...].contains(where: { $0.symbol == symbol }) {
            throw Refusal(reason: "a label defined twice")
        }
        if labels.count + gotos.count >= Self.maximumLabels { throw Refusal(reason: "too many labels and gotos") }
        labels.append(Label(symbol: symbol, level: level))
        var pending = gotoMark
        while pending < gotos.count {
            if gotos[pending].symbol == symbol {
                if gotos[pending].level < level { throw Refusal(reason: "a goto jumps into the scope of a local") }
                gotos.remove(at: pending)
            } else {
                pending += 1
            }
        }
    }

    // MARK: Locals

    mutating func declare(_ name: SyntaxNode) {
        if tracksConstants { scope.declare(name.a, as: name.op != 0 ? 1 : 0) }
    }

    func isReadOnly(_ symbol: Int32) -> Bool {
        guard tracksConstants else { return false }
        return scope.binding(of: symbol) == 1
    }

    func checkActive(adding count: Int) throws(Refusal) {
        if function.active + count > Self.maximumActiveLocals {
            throw Refusal(reason: "\(function.active + count) locals active in one function, near Lua's limit of 200")
        }
    }

    func checkRegisters(_ needed: Int) throws(Refusal) {
        if function.active + needed > Self.maximumRegisters {
            throw Refusal(reason: "a statement may need \(function.active + needed) registers, near Lua's limit of 255")
        }
    }

    /// Declares `count` locals (hidden or named) in the current function.
    mutating func addLocals(_ count: Int) throws(Refusal) {
        try checkActive(adding: count)
        function.active += count
        function.declared += count
    }
}
