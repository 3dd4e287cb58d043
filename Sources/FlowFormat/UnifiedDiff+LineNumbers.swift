#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension UnifiedDiff {
    /// Each distinct line of two texts numbered once, in the order first seen (all of the old
    /// text's lines before the new text's), and which sides hold each number.
    struct LineNumbers {
        /// The number of each line asked for in the old text, in order.
        let old: [Int32]
        /// The number of each line asked for in the new text, in order.
        let new: [Int32]
        /// For each number: 1 when the old text holds it, 2 the new, 3 both.
        let sides: [UInt8]

        /// Numbers the lines `a` of `oldText`, then `b` of `newText`: an open-addressed table of
        /// line hashes (eight bytes at a time); the bytes are compared only when two hashes
        /// agree. Everything is sized ahead (at most one number a line), so a file whose every
        /// line changed costs a hash, a probe and a few stores a line.
        init(_ oldText: [UInt8], _ a: ArraySlice<Range<Int>>, _ newText: [UInt8], _ b: ArraySlice<Range<Int>>) {
            let capacity = a.count + b.count
            var size = 16
            while size < capacity * 2 { size *= 2 }
            let slots = UnsafeMutablePointer<UInt64>.allocate(capacity: size)
            slots.initialize(repeating: 0, count: size)
            let firsts = UnsafeMutablePointer<Range<Int>>.allocate(capacity: max(capacity, 1))
            defer {
                slots.deallocate()
                firsts.deallocate()
            }
            var sides = [UInt8](repeating: 0, count: capacity)
            var oldNumbers: [Int32] = [], newNumbers: [Int32] = []
            var count = 0
            oldText.withUnsafeBytes { oldBytes in
                newText.withUnsafeBytes { newBytes in
                    sides.withUnsafeMutableBufferPointer { sideBuffer in
                        var table = Table(
                            texts: (oldBytes, newBytes), mask: size - 1, slots: slots, firsts: firsts,
                            sides: sideBuffer.baseAddress!)
                        oldNumbers = [Int32](unsafeUninitializedCapacity: a.count) { numbers, initialized in
                            for (index, range) in a.enumerated() { numbers[index] = table.number(range, side: 1) }
                            initialized = a.count
                        }
                        newNumbers = [Int32](unsafeUninitializedCapacity: b.count) { numbers, initialized in
                            for (index, range) in b.enumerated() { numbers[index] = table.number(range, side: 2) }
                            initialized = b.count
                        }
                        count = table.count
                    }
                }
            }
            sides.removeLast(capacity - count)
            self.old = oldNumbers
            self.new = newNumbers
            self.sides = sides
        }

        /// The table over the two texts' bytes while numbering. A slot holds a hash's high 32
        /// bits and its line's number plus one (0: empty); `firsts` holds, for each number, the
        /// line it was first seen as (in the old text when `sides` says the old text holds it:
        /// the old text's lines are all numbered first).
        private struct Table {
            let texts: (UnsafeRawBufferPointer, UnsafeRawBufferPointer)
            let mask: Int
            let slots: UnsafeMutablePointer<UInt64>
            let firsts: UnsafeMutablePointer<Range<Int>>
            let sides: UnsafeMutablePointer<UInt8>
            var count = 0

            init(
                texts: (UnsafeRawBufferPointer, UnsafeRawBufferPointer), mask: Int,
                slots: UnsafeMutablePointer<UInt64>, firsts: UnsafeMutablePointer<Range<Int>>,
                sides: UnsafeMutablePointer<UInt8>
            ) {
                self.texts = texts
                self.mask = mask
                self.slots = slots
                self.firsts = firsts
                self.sides = sides
            }

            /// The number of the line `range` of the old text (`side` 1) or the new (2).
            mutating func number(_ range: Range<Int>, side: UInt8) -> Int32 {
                let text = side == 1 ? texts.0 : texts.1
                let hash = LineNumbers.hash(text, range)
                let tag = hash & 0xffff_ffff_0000_0000
                var slot = Int(truncatingIfNeeded: hash) & mask
                while true {
                    let entry = slots[slot]
                    if entry == 0 { break }
                    let known = Int(truncatingIfNeeded: entry & 0xffff_ffff) - 1
                    if entry & 0xffff_ffff_0000_0000 == tag
                        && LineNumbers.equal(sides[known] & 1 != 0 ? texts.0 : texts.1, firsts[known], text, range)
                    {
                        sides[known] |= side
                        return Int32(truncatingIfNeeded: known)
                    }
                    slot = (slot + 1) & mask
                }
                slots[slot] = tag | UInt64(count + 1)
                firsts[count] = range
                sides[count] = side
                count += 1
                return Int32(truncatingIfNeeded: count - 1)
            }
        }

        /// A hash of `text[range]`: eight bytes at a time (the last few read as one word when
        /// the text goes on past them), then mixed so the low bits (the slot) depend on every
        /// byte.
        static func hash(_ text: UnsafeRawBufferPointer, _ range: Range<Int>) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(range.count)
            var index = range.lowerBound
            while index + 8 <= range.upperBound {
                hash = (hash ^ text.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0x9e37_79b9_7f4a_7c15
                hash ^= hash >> 32
                index += 8
            }
            let left = range.upperBound - index
            if left > 0 {
                var word: UInt64 = 0
                if index + 8 <= text.count {
                    word = text.loadUnaligned(fromByteOffset: index, as: UInt64.self).littleEndian
                    word &= (1 << UInt64(8 * left)) - 1
                } else {
                    for offset in 0..<left { word |= UInt64(text[index + offset]) << UInt64(8 * offset) }
                }
                hash = (hash ^ word) &* 0x9e37_79b9_7f4a_7c15
            }
            hash ^= hash >> 33
            hash &*= 0xff51_afd7_ed55_8ccd
            return hash ^ (hash >> 33)
        }

        /// Whether `a[first]` and `b[second]` hold the same bytes.
        static func equal(
            _ a: UnsafeRawBufferPointer, _ first: Range<Int>, _ b: UnsafeRawBufferPointer, _ second: Range<Int>
        ) -> Bool {
            first.count == second.count
                && (first.isEmpty
                    || memcmp(a.baseAddress! + first.lowerBound, b.baseAddress! + second.lowerBound, first.count) == 0)
        }
    }
}
