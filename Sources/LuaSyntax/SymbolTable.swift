#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Interns byte strings (names and decoded string literals) to dense ids, so the lexer
/// allocates nothing per token and the analyzer compares names as integers.
///
/// Open addressing; the bytes of every symbol live in one buffer. Each entry also keeps its
/// first and last eight bytes, which for the usual symbol of up to 16 bytes are its whole text:
/// a lookup then compares two words instead of calling memcmp.
package struct SymbolTable {
    private struct Entry {
        var head: UInt64
        var tail: UInt64
        var start: Int32
        var length: Int32
        var hash: UInt32
    }

    private var storage: [UInt8] = []
    private var entries: [Entry] = []
    /// Slot -> symbol id, or -1 when empty. Its count is a power of two.
    private var slots: [Int32]
    private var mask: Int

    /// The slot count a table starts with, and goes back to when `removeAll` finds it much larger.
    private static let initialSlots = 1024

    package init() {
        slots = Array(repeating: -1, count: Self.initialSlots)
        mask = Self.initialSlots - 1
        storage.reserveCapacity(8192)
        entries.reserveCapacity(512)
        internKeywords()
    }

    /// Forgets every symbol but the keywords, keeping the memory for the next chunk.
    package mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        if slots.count > 8 * Self.initialSlots {
            // A huge chunk grew the table: clearing that many slots for every small chunk after it
            // would cost more than growing again.
            slots = Array(repeating: -1, count: Self.initialSlots)
            mask = Self.initialSlots - 1
        } else {
            slots.withUnsafeMutableBufferPointer { $0.update(repeating: -1) }
        }
        internKeywords()
    }

    /// The keywords take ids 0..<22, in `LuaTokenKind` order: the lexer maps those ids to keyword tokens.
    private mutating func internKeywords() {
        for keyword in LuaTokenKind.keywords {
            var keyword = keyword
            keyword.withUTF8 { bytes in _ = intern(bytes.baseAddress!, bytes.count) }
        }
    }

    package var count: Int { entries.count }

    // MARK: Hashing

    /// The first and the last (up to) eight bytes, read without going past `count`; together
    /// with the count they tell apart any two texts of up to 16 bytes.
    @inline(__always)
    private static func words(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> (head: UInt64, tail: UInt64) {
        let raw = UnsafeRawPointer(bytes)
        if count >= 8 {
            return (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
        }
        if count >= 4 {
            return (
                UInt64(raw.loadUnaligned(as: UInt32.self)),
                UInt64(raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
            )
        }
        if count > 0 {
            return (UInt64(bytes[0]) | UInt64(bytes[count >> 1]) << 8 | UInt64(bytes[count &- 1]) << 16, 0)
        }
        return (0, 0)
    }

    /// Mixes the words (and, past 16 bytes, every word between them) into a hash whose low bits
    /// pick the slot.
    @inline(__always)
    private static func hash(_ bytes: UnsafePointer<UInt8>, _ count: Int, head: UInt64, tail: UInt64) -> UInt32 {
        var hash =
            (head &* 0x9E37_79B9_7F4A_7C15) ^ ((tail &+ UInt64(truncatingIfNeeded: count)) &* 0xC2B2_AE3D_27D4_EB4F)
        if count > 16 {
            let raw = UnsafeRawPointer(bytes)
            var offset = 8
            while offset < count &- 8 {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
                offset &+= 8
            }
        }
        hash ^= hash >> 32
        hash = hash &* 0xD6E8_FEB8_6659_FD93
        return UInt32(truncatingIfNeeded: hash >> 32)
    }

    // MARK: Lookup

    /// The slot holding these bytes' id (>= 0), or -1 - the empty slot where they would go.
    @inline(__always)
    private func find(_ bytes: UnsafePointer<UInt8>, _ count: Int, head: UInt64, tail: UInt64, hash: UInt32) -> Int32 {
        slots.withUnsafeBufferPointer { slots in
            entries.withUnsafeBufferPointer { entries in
                var slot = Int(hash) & mask
                while true {
                    let id = slots[slot]
                    if id < 0 { return -1 - Int32(truncatingIfNeeded: slot) }
                    let entry = entries[Int(id)]
                    if entry.hash == hash && entry.head == head && entry.tail == tail && Int(entry.length) == count
                        && (count <= 16
                            || storage.withUnsafeBufferPointer {
                                memcmp($0.baseAddress! + Int(entry.start), bytes, count) == 0
                            })
                    {
                        return id
                    }
                    slot = (slot &+ 1) & mask
                }
            }
        }
    }

    /// The id of these bytes, adding them when new.
    package mutating func intern(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
        let (head, tail) = Self.words(bytes, count)
        let hash = Self.hash(bytes, count, head: head, tail: tail)
        let found = find(bytes, count, head: head, tail: tail, hash: hash)
        if found >= 0 { return found }
        let id = Int32(truncatingIfNeeded: entries.count)
        entries.append(
            Entry(
                head: head, tail: tail, start: Int32(truncatingIfNeeded: storage.count),
                length: Int32(truncatingIfNeeded: count), hash: hash))
        storage.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
        slots[Int(-1 - found)] = id
        if entries.count * 2 > slots.count { grow() }
        return id
    }

    /// The id of `text`, when the chunk holds it as a name or string value.
    package func symbol(of text: String) -> Int32? {
        var text = text
        return text.withUTF8 { bytes -> Int32? in
            // An empty string may have no storage; nothing is read through the pointer then.
            let base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
            let (head, tail) = Self.words(base, bytes.count)
            let found = find(
                base, bytes.count, head: head, tail: tail, hash: Self.hash(base, bytes.count, head: head, tail: tail))
            return found >= 0 ? found : nil
        }
    }

    private mutating func grow() {
        let newCount = slots.count * 2
        slots = Array(repeating: -1, count: newCount)
        mask = newCount - 1
        for id in 0..<entries.count {
            var slot = Int(entries[id].hash) & mask
            while slots[slot] >= 0 { slot = (slot &+ 1) & mask }
            slots[slot] = Int32(id)
        }
    }

    // MARK: Text

    /// One symbol's text.
    package func text(of id: Int32) -> String {
        let entry = entries[Int(id)]
        let start = Int(entry.start)
        return storage.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[start..<(start + Int(entry.length))]), as: UTF8.self)
        }
    }

    /// Every symbol as a String, indexed by id (invalid UTF-8 is repaired, as Lua strings may hold any byte).
    package func strings() -> [String] {
        (0..<entries.count).map { text(of: Int32($0)) }
    }

    /// The symbols' texts by id, each made when it is read.
    package var texts: Texts { Texts(table: self) }

    /// The symbols' texts by id (as `strings()` gives them), each made when it is read.
    package struct Texts: RandomAccessCollection, Sendable {
        let table: SymbolTable
        package var startIndex: Int { 0 }
        package var endIndex: Int { table.count }
        package subscript(id: Int) -> String { table.text(of: Int32(id)) }
    }
}
