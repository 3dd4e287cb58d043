import LuaSyntax

/// A parsed chunk as `ModuleTypeCollector` reads it: the parser's node and list buffers and its
/// symbol table, read in place. `SyntaxTree`'s reading functions, without its copy of the
/// nodes, lists, source and every symbol's text (which validation's types made for each module
/// only to walk it once), and without a call into LuaSyntax for each node read.
///
/// Valid only while the buffers it points into are: inside `collect`.
struct ChunkNodes {
    typealias NodeID = SyntaxTree.NodeID

    let nodes: UnsafeBufferPointer<SyntaxNode>
    let lists: UnsafeBufferPointer<NodeID>
    let symbols: SymbolTable
    /// The chunk's source bytes (numerals point into them).
    let source: UnsafeRawBufferPointer
    /// The chunk's top-level `block`.
    let root: NodeID

    @inline(__always) subscript(id: NodeID) -> SyntaxNode { nodes[Int(id)] }

    /// `count` node ids starting at `start` in `lists`.
    @inline(__always) func list(_ start: Int32, _ count: Int32) -> Slice<UnsafeBufferPointer<NodeID>> {
        lists[Int(start)..<Int(start + count)]
    }

    /// The text of a `name`, `string`, `localName`, `gotoStatement` or `label` node.
    func text(of id: NodeID) -> String { symbols.text(of: nodes[Int(id)].a) }

    /// The text of a symbol.
    func text(ofSymbol symbol: Int32) -> String { symbols.text(of: symbol) }

    /// The source text of a `number` node.
    func numeral(of id: NodeID) -> String {
        let node = nodes[Int(id)]
        return String(decoding: source[Int(node.a)..<Int(node.a + node.b)], as: UTF8.self)
    }

    /// The statements of a `block` node.
    @inline(__always) func statements(of block: NodeID) -> Slice<UnsafeBufferPointer<NodeID>> {
        let node = nodes[Int(block)]
        return list(node.a, node.b)
    }

    /// The arguments of a `call` or `methodCall` node.
    @inline(__always) func arguments(of call: NodeID) -> Slice<UnsafeBufferPointer<NodeID>> {
        let node = nodes[Int(call)]
        return node.kind == .methodCall ? list(node.b + 1, node.c) : list(node.b, node.c)
    }

    /// The symbol id of `text`, when the chunk mentions it as a name or string at all.
    func symbol(named text: String) -> Int32? { symbols.symbol(of: text) }

    /// How many symbols the chunk has (ids are below it).
    var symbolCount: Int { symbols.count }
}
