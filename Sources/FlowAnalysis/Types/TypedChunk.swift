import LuaSyntax

/// What `ModuleTypeCollector` reads of a chunk in the parser's buffers: its nodes and lists
/// (`SyntaxBuffers`, read in place, with no `SyntaxTree` copied from them for each module
/// validation checks) and its symbols' text, which types need for names. `SyntaxBuffers`
/// itself holds no reference, so the lint walk, specialised, copies it for nothing; the
/// symbol table rides beside it here.
struct TypedChunk {
    let buffers: SyntaxBuffers
    let symbols: SymbolTable

    init(
        nodes: UnsafeBufferPointer<SyntaxNode>, lists: UnsafeBufferPointer<Int32>, symbols: SymbolTable, root: Int32
    ) {
        buffers = SyntaxBuffers(nodes: nodes, lists: lists, symbols: symbols, root: root)
        self.symbols = symbols
    }

    var root: Int32 { buffers.root }
    var symbolCount: Int { buffers.symbolCount }
    var nodes: UnsafeBufferPointer<SyntaxNode> { buffers.nodes }
    var lists: UnsafeBufferPointer<Int32> { buffers.lists }
    @inline(__always) subscript(id: Int32) -> SyntaxNode { buffers[id] }
    @inline(__always) func list(_ start: Int32, _ count: Int32) -> Slice<UnsafeBufferPointer<Int32>> {
        buffers.list(start, count)
    }

    /// The statements of a `block` node.
    @inline(__always) func statements(of block: Int32) -> Slice<UnsafeBufferPointer<Int32>> {
        buffers.statements(of: block)
    }

    /// The text of a `name`, `string`, `localName`, `gotoStatement` or `label` node.
    func text(of id: Int32) -> String { symbols.text(of: buffers[id].a) }

    /// The symbol of `text` in this chunk, if the chunk says it at all.
    func symbol(named text: String) -> Int32? { symbols.symbol(of: text) }

    /// The arguments of a `call` or `methodCall` node.
    @inline(__always) func arguments(of call: Int32) -> Slice<UnsafeBufferPointer<Int32>> {
        let node = buffers[call]
        return node.kind == .methodCall ? list(node.b + 1, node.c) : list(node.b, node.c)
    }
}
