#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension UnifiedDiff {
    /// Numbers each distinct line once: an open-addressed table of line hashes (eight bytes at
    /// a time), the bytes compared only when two hashes are equal.
    struct LineNumbers {
        /// For each slot, the number of the line it holds, or -1.
        private var slots: [Int32]
        private let mask: Int
        /// The two texts.
        private let old: [UInt8], new: [UInt8]
        /// For each number, its line's hash, text (`inNew`) and place.
        private var hashes: [UInt64] = []
        private var inNew: [Bool] = []
        private var ranges: [Range<Int>] = []

        /// A table for up to `capacity` lines of `old` and `new`.
        init(_ old: [UInt8], _ new: [UInt8], capacity: Int) {
            self.old = old
            self.new = new
            var size = 16
            while size < capacity * 2 { size *= 2 }
            slots = [Int32](repeating: -1, count: size)
            mask = size - 1
            hashes.reserveCapacity(capacity)
        }

        /// How many distinct lines have been numbered.
        var count: Int { hashes.count }

        /// The number of the line `range` of the new text (`inNew`) or the old: a new number the
        /// first time its bytes are seen.
        mutating func number(inNew side: Bool, _ range: Range<Int>) -> Int {
            let text = side ? new : old
            let hash = Self.hash(text, range)
            var slot = Int(truncatingIfNeeded: hash) & mask
            while true {
                let known = Int(slots[slot])
                if known < 0 { break }
                if hashes[known] == hash && Self.equal((inNew[known] ? new : old), ranges[known], text, range) {
                    return known
                }
                slot = (slot + 1) & mask
            }
            slots[slot] = Int32(hashes.count)
            hashes.append(hash)
            inNew.append(side)
            ranges.append(range)
            return hashes.count - 1
        }

        /// A hash of `text[range]`: eight bytes at a time, then the bytes left, then mixed so the
        /// low bits (the slot) depend on every byte.
        static func hash(_ text: [UInt8], _ range: Range<Int>) -> UInt64 {
            text.withUnsafeBytes { bytes in
                var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(range.count)
                var index = range.lowerBound
                while index + 8 <= range.upperBound {
                    hash = (hash ^ bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0x9e37_79b9_7f4a_7c15
                    hash ^= hash >> 32
                    index += 8
                }
                while index < range.upperBound {
                    hash = (hash ^ UInt64(bytes[index])) &* 0x100_0000_01b3
                    index += 1
                }
                hash ^= hash >> 33
                hash &*= 0xff51_afd7_ed55_8ccd
                return hash ^ (hash >> 33)
            }
        }

        /// Whether `a[first]` and `b[second]` hold the same bytes.
        static func equal(_ a: [UInt8], _ first: Range<Int>, _ b: [UInt8], _ second: Range<Int>) -> Bool {
            guard first.count == second.count else { return false }
            return a.withUnsafeBytes { x in
                b.withUnsafeBytes { y in
                    first.isEmpty
                        || memcmp(x.baseAddress! + first.lowerBound, y.baseAddress! + second.lowerBound, first.count)
                            == 0
                }
            }
        }
    }
}
