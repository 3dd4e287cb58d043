/// A chunk's tokens in the memory the lexer or the parser recorded them in, handed over without
/// a copy: what `LuaTokenStream.tokens` holds, read as an array of `LuaToken` from index 0.
/// Public with its members inlinable so that the formatter's reads of tokens are inlined (a
/// `package` member marked `@inlinable` was still called).
public struct LuaTokens: RandomAccessCollection, Sendable {
    public typealias Indices = Range<Int>

    /// Owns the tokens' memory (never written after the tokens are handed over); frees it with
    /// the last copy.
    @usableFromInline final class Storage: @unchecked Sendable {
        @usableFromInline let base: UnsafeMutablePointer<LuaToken>
        init(_ base: UnsafeMutablePointer<LuaToken>) { self.base = base }
        deinit { base.deallocate() }
    }

    @usableFromInline let storage: Storage
    public let count: Int

    /// Takes the first `count` tokens of `recorded` (which is left empty, with room of its own),
    /// the last of them (`.eof`) placed at the end of the source, as `init(source:)` lexes it.
    init(taking recorded: inout ParseBuffer<LuaToken>, count: Int, sourceCount: Int) {
        let base = recorded.takeMemory()
        base[count - 1].offset = Int32(truncatingIfNeeded: sourceCount)
        storage = Storage(base)
        self.count = count
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }

    @inlinable
    public subscript(index: Int) -> LuaToken {
        precondition(index >= 0 && index < count, "token index out of range")
        return storage.base[index]
    }
}
