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

    init() {
        slots = Array(repeating: -1, count: 1024)
        mask = 1023
        storage.reserveCapacity(8192)
        starts.reserveCapacity(512)
        lengths.reserveCapacity(512)
        hashes.reserveCapacity(512)
        for keyword in LuaTokenKind.keywords {
            var bytes = Array(keyword.utf8)
            _ = bytes.withUnsafeMutableBufferPointer { buffer in
                intern(UnsafePointer(buffer.baseAddress!), buffer.count, hash: SymbolTable.hash(UnsafePointer(buffer.baseAddress!), buffer.count))
            }
        }
    }

    var count: Int { starts.count }

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
        let start = Int(starts[Int(id)])
        return String(decoding: storage[start..<(start + Int(lengths[Int(id)]))], as: UTF8.self)
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
