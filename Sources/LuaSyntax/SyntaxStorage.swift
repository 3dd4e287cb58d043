/// Where a parsed chunk's nodes live, as `SyntaxVisitor` reads them: a `SyntaxTree` (arrays it
/// owns) or a `SyntaxBuffers` (the parser's own buffers, borrowed while a pass runs, so that the
/// hot path of validation walks a chunk without copying it into a tree).
package protocol SyntaxStorage {
    /// The node ids of one list (a block's statements, a call's arguments).
    associatedtype List: RandomAccessCollection<SyntaxTree.NodeID>
    /// The chunk's top-level block.
    var root: SyntaxTree.NodeID { get }
    /// How many distinct names and strings the chunk holds.
    var symbolCount: Int { get }
    subscript(id: SyntaxTree.NodeID) -> SyntaxNode { get }
    /// `count` node ids starting at `start` in the lists.
    func list(_ start: Int32, _ count: Int32) -> List
    /// The node id at `index` in the lists.
    func listElement(_ index: Int32) -> SyntaxTree.NodeID
    /// The symbol id of `text`, when the chunk mentions it at all.
    func symbol(named text: String) -> Int32?
}

extension SyntaxStorage {
    /// The statements of a `block` node.
    @inlinable
    package func statements(of block: SyntaxTree.NodeID) -> List {
        let node = self[block]
        return list(node.a, node.b)
    }
}

extension SyntaxTree: SyntaxStorage {
    package var symbolCount: Int { symbols.count }
    package func listElement(_ index: Int32) -> NodeID { lists[Int(index)] }
}

/// A parsed chunk in the parser's buffers: valid only while they are (during one pass).
package struct SyntaxBuffers: SyntaxStorage {
    package let nodes: UnsafeBufferPointer<SyntaxNode>
    package let lists: UnsafeBufferPointer<Int32>
    package let symbols: SymbolTable
    package let root: Int32

    package init(
        nodes: UnsafeBufferPointer<SyntaxNode>, lists: UnsafeBufferPointer<Int32>, symbols: SymbolTable, root: Int32
    ) {
        self.nodes = nodes
        self.lists = lists
        self.symbols = symbols
        self.root = root
    }

    @inlinable package var symbolCount: Int { symbols.count }
    @inlinable package subscript(id: Int32) -> SyntaxNode { nodes[Int(id)] }
    @inlinable
    package func list(_ start: Int32, _ count: Int32) -> Slice<UnsafeBufferPointer<Int32>> {
        lists[Int(start)..<Int(start + count)]
    }
    @inlinable package func listElement(_ index: Int32) -> Int32 { lists[Int(index)] }
    package func symbol(named text: String) -> Int32? { symbols.symbol(of: text) }
}
