/// The reserved words by a perfect hash of their bytes, so the lexer tells a keyword from a
/// name without a symbol table lookup (a third of the names in Lua code are keywords).
///
/// A word of 2 to 8 bytes is keyed by its first and last four bytes (its first, middle and
/// last byte below four bytes), as `SymbolTable` keys it; with its length that tells any two
/// such words apart. `multiplier` sends the 22 keywords to 22 distinct slots of 32.
enum KeywordTable {
    struct Entry {
        var key: UInt64 = 0
        /// 0 in an empty slot: no name of length 0 is looked up.
        var length: UInt32 = 0
        var kind = LuaTokenKind.eof
    }

    static let multiplier: UInt64 = 0x133A_173B_30B8_83E5
    static let slotCount = 32

    /// Where the table lies: right after the 256 byte classes of `CharClass.table` (one
    /// allocation, so the lexer reaches both from its `classes` pointer).
    @inline(__always)
    static func entries(after classes: UnsafePointer<UInt8>) -> UnsafePointer<Entry> {
        UnsafeRawPointer(classes + 256).assumingMemoryBound(to: Entry.self)
    }

    /// Writes the table at `memory` (16-byte aligned, `slotCount` entries).
    static func fill(_ memory: UnsafeMutableRawPointer) {
        let table = memory.bindMemory(to: Entry.self, capacity: slotCount)
        table.initialize(repeating: Entry(), count: slotCount)
        for (index, keyword) in LuaTokenKind.keywords.enumerated() {
            var text = keyword
            text.withUTF8 { bytes in
                let key = Self.key(bytes.baseAddress!, bytes.count)
                let slot = Self.slot(key: key, length: bytes.count)
                precondition(table[slot].length == 0, "keyword table: \(keyword) collides")
                table[slot] = Entry(
                    key: key, length: UInt32(bytes.count), kind: LuaTokenKind(rawValue: UInt8(index)).unsafelyUnwrapped)
            }
        }
    }

    /// The key of `count` (2 to 8) bytes, read without going past them.
    @inline(__always)
    static func key(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> UInt64 {
        let raw = UnsafeRawPointer(bytes)
        if count >= 4 {
            return UInt64(raw.loadUnaligned(as: UInt32.self))
                | UInt64(raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)) << 32
        }
        return UInt64(bytes[0]) | UInt64(bytes[count >> 1]) << 8 | UInt64(bytes[count &- 1]) << 16
    }

    @inline(__always)
    static func slot(key: UInt64, length: Int) -> Int {
        Int(truncatingIfNeeded: ((key &+ UInt64(truncatingIfNeeded: length)) &* multiplier) >> 59)
    }
}
