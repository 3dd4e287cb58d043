extension UnifiedDiff {
    /// Numbers each distinct line once: an open-addressed table of line hashes (FNV-1a, one
    /// pass over a line's bytes), the bytes compared only when two hashes are equal.
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
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for index in range { hash = (hash ^ UInt64(text[index])) &* 0x100_0000_01b3 }
            var slot = Int(truncatingIfNeeded: hash) & mask
            while true {
                let known = Int(slots[slot])
                if known < 0 { break }
                if hashes[known] == hash && (inNew[known] ? new : old)[ranges[known]].elementsEqual(text[range]) {
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
    }
}
