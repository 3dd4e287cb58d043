/// Which declaration each name refers to, by Lua's scoping rules: the one scope tracker every
/// pass over a syntax tree uses (`SyntaxVisitor` keeps one for each pass on it: the facts
/// collector, the linter, the LSP's symbols; the compiler-check screen and the value-flow pass
/// keep theirs in the same type).
///
/// A pass gives each declaration an id of its own (an index into its own table of variables,
/// or 0 when it only asks whether a name is bound); the tracker maps each symbol to the
/// innermost declaration of that name in scope, -1 for none, and undoes a scope's declarations
/// when it ends. Per-symbol storage, sized by the chunk's symbol count: a lookup is one load.
public struct ScopeTracker {
    /// One declaration in scope: its symbol, its id and the declaration of that name it hides.
    @usableFromInline struct Entry: BitwiseCopyable {
        @usableFromInline var symbol: Int32
        @usableFromInline var id: Int32
        @usableFromInline var previous: Int32

        @inlinable init(symbol: Int32, id: Int32, previous: Int32) {
            self.symbol = symbol
            self.id = id
            self.previous = previous
        }
    }

    /// Per symbol: the innermost declaration's id, or -1.
    @usableFromInline var binding = ParseBuffer<Int32>(capacity: 1024)
    /// Declarations in scope, innermost last.
    @usableFromInline var declared = ParseBuffer<Entry>()

    public init() {}

    /// Forgets every declaration and makes room for a chunk of `symbolCount` symbols.
    @inlinable
    public mutating func reset(symbolCount: Int) {
        binding.removeAll()
        binding.append(repeating: -1, count: symbolCount)
        declared.removeAll()
    }

    /// Where the current scope starts: give it to `leave(to:)` when the scope ends.
    @inlinable
    public var mark: Int { declared.count }

    /// How many declarations are in scope.
    @inlinable
    public var count: Int { declared.count }

    /// The id of the innermost declaration of `symbol` in scope, or -1.
    @inlinable @inline(__always)
    public func binding(of symbol: Int32) -> Int32 { binding[Int(symbol)] }

    /// Whether a declaration of `symbol` is in scope.
    @inlinable @inline(__always)
    public func isBound(_ symbol: Int32) -> Bool { binding[Int(symbol)] >= 0 }

    /// Declares `symbol` as `id` in the current scope; returns the id of the declaration it
    /// hides, or -1. A symbol of -1 declares what no name can refer to (a method's `self` in a
    /// chunk that never writes `self`): it takes its place in the scope, and hides nothing.
    @inlinable @inline(__always) @discardableResult
    public mutating func declare(_ symbol: Int32, as id: Int32) -> Int32 {
        let previous = symbol >= 0 ? binding[Int(symbol)] : -1
        declared.append(Entry(symbol: symbol, id: id, previous: previous))
        if symbol >= 0 { binding[Int(symbol)] = id }
        return previous
    }

    /// The id of the innermost declaration in scope, when there are more than `mark`.
    @inlinable @inline(__always)
    public func innermost(above mark: Int) -> Int32? {
        declared.count > mark ? declared[declared.count - 1].id : nil
    }

    /// The id of the declaration `index` places from the outermost (0 is the outermost).
    @inlinable
    public func declaration(at index: Int) -> Int32 { declared[index].id }

    /// Ends the innermost declaration: its name refers again to what it hid.
    @inlinable @inline(__always)
    public mutating func unbindInnermost() {
        let entry = declared.removeLast()
        if entry.symbol >= 0 { binding[Int(entry.symbol)] = entry.previous }
    }

    /// Ends the scope that started at `mark`.
    @inlinable
    public mutating func leave(to mark: Int) {
        while declared.count > mark { unbindInnermost() }
    }
}
