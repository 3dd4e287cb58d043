/// What a syntax node is. The meaning of a node's `a`, `b`, `c` fields depends on its
/// kind, as documented on each case; "list" means `a` is a start index into
/// `SyntaxTree.lists` and a count field says how many node ids follow.
public enum SyntaxKind: UInt8, Sendable, BitwiseCopyable {
    // Expressions
    /// `nil`, `true`, `false`, `...`: no fields.
    case nilLiteral, trueLiteral, falseLiteral, vararg
    /// A numeral: `a` byte offset and `b` byte length of its text in `SyntaxTree.source`.
    case number
    /// A string: `a` the symbol of its decoded value. `op` is 1 when it stands for a name
    /// (`t.name`, `t:name()`, `{name = v}`) rather than a literal in the source.
    case string
    /// A variable reference: `a` the symbol of the name.
    case name
    /// `a[b]` or `a.b` (`op` 1 for the dotted form): `a` the object, `b` the key expression.
    case index
    /// `f(args)`: `a` the callee, `b` list start, `c` argument count.
    case call
    /// `o:m(args)`: `a` the object, `b` list start (first the method name, a `string`, then
    /// the arguments), `c` the argument count (the name not counted).
    case methodCall
    /// `function (params) body end`: `a` list start of the parameters (`localName` nodes),
    /// `b` their count, `c` the body `block`. `op` bit 0: takes `...`; bit 1: a method (implicit `self`).
    case function
    /// `a op b`: `op` a `BinaryOperator` raw value.
    case binary
    /// `op a`: `op` a `UnaryOperator` raw value.
    case unary
    /// `(a)`: a parenthesised expression (truncates multiple results to one).
    case paren
    /// `{ fields }`: `a` list start, `b` count of field nodes.
    case table
    /// A table field `v` (positional): `a` the value.
    case positionalField
    /// A table field `name = v` or `[k] = v`: `a` the key expression, `b` the value.
    case keyedField

    // Statements
    /// A sequence of statements: `a` list start, `b` count.
    case block
    /// `local names = values`: `a` list start (the `localName` nodes, then the values),
    /// `b` name count, `c` value count.
    case local
    /// A declared local name: `a` its symbol; `op` 0 none, 1 `<const>`, 2 `<close>`.
    case localName
    /// `targets = values`: `a` list start (targets, then values), `b` target count, `c` value count.
    case assignment
    /// A call used as a statement: `a` the call or method call.
    case callStatement
    /// `do block end`: `a` the block.
    case doBlock
    /// `while a do b end`.
    case whileLoop
    /// `repeat a until b` (`b` sees the block's locals).
    case repeatLoop
    /// `if c1 then b1 elseif c2 then b2 ... else e end`: `a` list start of (condition, block)
    /// pairs, `b` pair count, `c` the else block or -1.
    case ifStatement
    /// `for v = start, limit[, step] do body end`: `a` list start (the `localName`, start,
    /// limit, step if any), `b` that count (3 or 4), `c` the body block.
    case numericFor
    /// `for names in exprs do body end`: `a` list start (names, then expressions, then the
    /// body block), `b` name count, `c` expression count.
    case genericFor
    /// `function target() end`: `a` the target (a `name` or `index` chain), `b` the `function`.
    case functionStatement
    /// `local function name() end`: `a` the `localName`, `b` the `function`.
    case localFunction
    /// `return values`: `a` list start, `b` count.
    case returnStatement
    /// `break`.
    case breakStatement
    /// `goto name`: `a` the label's symbol.
    case gotoStatement
    /// `::name::`: `a` the label's symbol.
    case label
}

/// Binary operators, in Lua's own order.
package enum BinaryOperator: UInt8, Sendable {
    case add, subtract, multiply, modulo, power, divide, floorDivide
    case bitwiseAnd, bitwiseOr, bitwiseXor, shiftLeft, shiftRight, concat
    case equal, less, lessEqual, notEqual, greater, greaterEqual, and, or
}

/// Unary operators: `-`, `not`, `#`, `~`.
package enum UnaryOperator: UInt8, Sendable {
    case negate, not, length, bitwiseNot
}

extension SyntaxKind {
    /// Compares the tags: the synthesized `==` is called through the Equatable witness from
    /// other modules, and the walkers (FlowAnalysis) compare kinds at every node.
    @inlinable @inline(__always)
    public static func == (lhs: SyntaxKind, rhs: SyntaxKind) -> Bool { lhs.rawValue == rhs.rawValue }
}

/// One node of the tree: 24 bytes, stored in one array (no allocation per node).
public struct SyntaxNode: Sendable, BitwiseCopyable {
    public var kind: SyntaxKind
    /// Operator, attribute or flags, depending on `kind`.
    public var op: UInt8
    /// 1-based line of the node's first token (for a call, of its callee's first token).
    public var line: Int32
    /// 1-based byte column of that token.
    public var column: Int32
    public var a: Int32
    public var b: Int32
    public var c: Int32

    package var location: SourceLocation { SourceLocation(line: Int(line), column: Int(column)) }
}

/// A parsed Lua chunk: every node in one array, child lists in another, names and string
/// values interned as symbols. Node ids are indices into `nodes`.
///
/// Nesting through statements, parentheses, tables, functions and right-associative operators
/// is bounded by `LuaParser.maximumDepth`; left-associative operators and suffix chains
/// (`a + b + c`, `o:m():m()`) nest on their `a` side without bound, so walk those with a loop.
public struct SyntaxTree: Sendable {
    public typealias NodeID = Int32

    @usableFromInline package let nodes: [SyntaxNode]
    /// Child lists: nodes refer to runs of this array.
    @usableFromInline package let lists: [NodeID]
    /// The names and string values as the lexer interned them: their texts (`symbols`, made
    /// when asked for), lookups by text.
    package let symbolTable: SymbolTable
    /// The source bytes (numerals point into it).
    package let source: [UInt8]
    /// The chunk's top-level `block`.
    public let root: NodeID
    /// How many lines the chunk has.
    package let lineCount: Int
    /// Where each empty statement (a `;` that follows no statement) stands.
    package var emptyStatements: [SourceLocation] = []

    init(
        nodes: [SyntaxNode], lists: [NodeID], symbolTable: SymbolTable, source: [UInt8], root: NodeID, lineCount: Int
    ) {
        self.nodes = nodes
        self.lists = lists
        self.symbolTable = symbolTable
        self.source = source
        self.root = root
        self.lineCount = lineCount
    }

    @inlinable public subscript(id: NodeID) -> SyntaxNode { nodes[Int(id)] }

    /// `count` node ids starting at `start` in `lists`.
    @inlinable
    public func list(_ start: Int32, _ count: Int32) -> ArraySlice<NodeID> {
        lists[Int(start)..<Int(start + count)]
    }

    /// Symbol id -> text, for names and decoded string values: each text made when it is read
    /// (the formatter reads two names of a chunk; a `String` for every symbol cost more).
    package var symbols: SymbolTable.Texts { symbolTable.texts }

    /// The text of a `name`, `string`, `localName`, `gotoStatement` or `label` node (a name
    /// not interned read from the source).
    package func text(of id: NodeID) -> String {
        let symbol = nodes[Int(id)].a
        guard symbol < -1 else { return symbolTable.text(of: symbol) }
        return source.withUnsafeBufferPointer { LuaLexer.name(at: Int(-2 - symbol), in: $0) }
    }

    /// The source text of a `number` node.
    package func numeral(of id: NodeID) -> String {
        let node = nodes[Int(id)]
        return String(decoding: source[Int(node.a)..<Int(node.a + node.b)], as: UTF8.self)
    }

    /// The statements of a `block` node.
    @inlinable
    package func statements(of block: NodeID) -> ArraySlice<NodeID> {
        let node = nodes[Int(block)]
        return list(node.a, node.b)
    }

    /// The arguments of a `call` or `methodCall` node.
    @inlinable
    package func arguments(of call: NodeID) -> ArraySlice<NodeID> {
        let node = nodes[Int(call)]
        return node.kind == .methodCall ? list(node.b + 1, node.c) : list(node.b, node.c)
    }

    /// The symbol id of `text`, when the chunk mentions it as a name or string at all.
    public func symbol(named text: String) -> Int32? {
        symbolTable.symbol(of: text)
    }
}
