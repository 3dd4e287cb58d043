#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Interns byte strings (names and decoded string literals) to dense ids, so the lexer
/// allocates nothing per token and the analyzer compares names as integers.
///
/// Open addressing over FNV-1a hashes; the bytes of every symbol live in one buffer.
struct SymbolTable {
    private var storage: [UInt8] = []
    private var starts: [Int32] = []
    private var lengths: [Int32] = []
    private var hashes: [UInt32] = []
    /// Slot -> symbol id, or -1 when empty. Its count is a power of two.
    private var slots: [Int32]
    private var mask: Int

    /// The slot count a table starts with, and goes back to when `removeAll` finds it much larger.
    private static let initialSlots = 1024

    init() {
        slots = Array(repeating: -1, count: Self.initialSlots)
        mask = Self.initialSlots - 1
        storage.reserveCapacity(8192)
        starts.reserveCapacity(512)
        lengths.reserveCapacity(512)
        hashes.reserveCapacity(512)
        internKeywords()
    }

    /// Forgets every symbol but the keywords, keeping the memory for the next chunk.
    mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true)
        hashes.removeAll(keepingCapacity: true)
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
            keyword.withUTF8 { bytes in
                _ = intern(bytes.baseAddress!, bytes.count, hash: SymbolTable.hash(bytes.baseAddress!, bytes.count))
            }
        }
    }

    var count: Int { starts.count }

    /// The id of `text`, when the chunk holds it as a name or string value.
    func symbol(of text: String) -> Int32? {
        var text = text
        return text.withUTF8 { bytes -> Int32? in
            // An empty string may have no storage; nothing is read through the pointer then.
            let base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
            let hash = SymbolTable.hash(base, bytes.count)
            var slot = Int(hash) & mask
            while true {
                let id = slots[slot]
                if id < 0 { return nil }
                if hashes[Int(id)] == hash && Int(lengths[Int(id)]) == bytes.count
                    && storage.withUnsafeBufferPointer({ memcmp($0.baseAddress! + Int(starts[Int(id)]), base, bytes.count) == 0 }) {
                    return id
                }
                slot = (slot &+ 1) & mask
            }
        }
    }

    @inline(__always)
    static func hash(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for index in 0..<count {
            hash = (hash ^ UInt32(bytes[index])) &* 16_777_619
        }
        return hash
    }

    /// The id of these bytes, adding them when new. `hash` must be `SymbolTable.hash` of them.
    mutating func intern(_ bytes: UnsafePointer<UInt8>, _ count: Int, hash: UInt32) -> Int32 {
        let found: Int32 = slots.withUnsafeBufferPointer { slots in
            hashes.withUnsafeBufferPointer { hashes in
                lengths.withUnsafeBufferPointer { lengths in
                    starts.withUnsafeBufferPointer { starts in
                        storage.withUnsafeBufferPointer { storage in
                            var slot = Int(hash) & mask
                            while true {
                                let id = slots[slot]
                                if id < 0 { return -1 - Int32(slot) }
                                if hashes[Int(id)] == hash && Int(lengths[Int(id)]) == count
                                    && memcmp(storage.baseAddress! + Int(starts[Int(id)]), bytes, count) == 0 {
                                    return id
                                }
                                slot = (slot &+ 1) & mask
                            }
                        }
                    }
                }
            }
        }
        if found >= 0 { return found }
        let slot = Int(-1 - found)
        let id = Int32(starts.count)
        starts.append(Int32(storage.count))
        lengths.append(Int32(count))
        hashes.append(hash)
        storage.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
        slots[slot] = id
        if starts.count * 2 > slots.count { grow() }
        return id
    }

    private mutating func grow() {
        let newCount = slots.count * 2
        slots = Array(repeating: -1, count: newCount)
        mask = newCount - 1
        for id in 0..<starts.count {
            var slot = Int(hashes[id]) & mask
            while slots[slot] >= 0 { slot = (slot &+ 1) & mask }
            slots[slot] = Int32(id)
        }
    }

    /// One symbol's text.
    func text(of id: Int32) -> String {
        let start = Int(starts[Int(id)]), count = Int(lengths[Int(id)])
        return storage.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<(start + count)]), as: UTF8.self) }
    }

    /// Every symbol as a String, indexed by id (invalid UTF-8 is repaired, as Lua strings may hold any byte).
    func strings() -> [String] {
        var result: [String] = []
        result.reserveCapacity(starts.count)
        storage.withUnsafeBufferPointer { buffer in
            for id in 0..<starts.count {
                let start = Int(starts[id])
                let slice = UnsafeBufferPointer(rebasing: buffer[start..<(start + Int(lengths[id]))])
                result.append(String(decoding: slice, as: UTF8.self))
            }
        }
        return result
    }
}
