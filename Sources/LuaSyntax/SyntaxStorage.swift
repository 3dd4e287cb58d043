/// Where a parsed chunk's nodes live, as `SyntaxVisitor` reads them: a `SyntaxTree` (arrays it
/// owns) or a `SyntaxBuffers` (the parser's own buffers, borrowed while a pass runs, so that the
/// hot path of validation walks a chunk without copying it into a tree).
public protocol SyntaxStorage {
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
    /// The symbol of `self`, when the chunk says `self` at all: a method's implicit parameter.
    var selfSymbol: Int32? { get }
}

extension SyntaxStorage {
    /// The statements of a `block` node.
    @inlinable
    public func statements(of block: SyntaxTree.NodeID) -> List {
        let node = self[block]
        return list(node.a, node.b)
    }
}

extension SyntaxTree: SyntaxStorage {
    public var symbolCount: Int { symbolTable.count }
    public var selfSymbol: Int32? { symbol(named: "self") }
    public func listElement(_ index: Int32) -> NodeID { lists[Int(index)] }
}

/// A parsed chunk in the parser's buffers: valid only while they are (during one pass). Plain
/// values only (no reference counted storage), so a specialised walk copies it for nothing.
public struct SyntaxBuffers: SyntaxStorage {
    public let nodes: UnsafeBufferPointer<SyntaxNode>
    public let lists: UnsafeBufferPointer<Int32>
    public let root: Int32
    public let symbolCount: Int
    /// `self`'s symbol, or -1.
    @usableFromInline let selfSymbolID: Int32

    package init(
        nodes: UnsafeBufferPointer<SyntaxNode>, lists: UnsafeBufferPointer<Int32>, symbols: SymbolTable, root: Int32
    ) {
        self.nodes = nodes
        self.lists = lists
        self.root = root
        symbolCount = symbols.count
        selfSymbolID = symbols.symbol(of: "self") ?? -1
    }

    @inlinable public var selfSymbol: Int32? { selfSymbolID >= 0 ? selfSymbolID : nil }
    @inlinable public subscript(id: Int32) -> SyntaxNode { nodes[Int(id)] }
    @inlinable
    public func list(_ start: Int32, _ count: Int32) -> Slice<UnsafeBufferPointer<Int32>> {
        lists[Int(start)..<Int(start + count)]
    }
    @inlinable public func listElement(_ index: Int32) -> Int32 { lists[Int(index)] }
}
