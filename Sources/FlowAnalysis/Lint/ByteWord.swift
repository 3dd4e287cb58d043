/// Tests on eight bytes at once, for the scans that step over long runs of plain text
/// (`ModuleLinter`'s line starts, `WhitespaceLint`).
enum ByteWord {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Non-zero exactly when one of the eight bytes of `word` is `byte`: the zero-byte test
    /// on `word ^ byte×8`. Masks of several bytes are or-ed, one branch for all.
    @inline(__always) private static func match(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let x = word ^ (ones &* UInt64(byte))
        return (x &- ones) & ~x & highs
    }

    /// How many of the eight bytes (loaded little-endian: the first is the lowest) come before
    /// the first that `mask` flags; 8 for none. The lowest flag is exact: a false one can only
    /// follow a true one.
    @inline(__always) static func leading(_ mask: UInt64) -> Int { mask.trailingZeroBitCount >> 3 }

    /// The bytes before the first `\n` or `\r`.
    @inline(__always) static func beforeLineBreak(_ word: UInt64) -> Int {
        leading(match(word, 0x0A) | match(word, 0x0D))
    }

    /// The bytes before the first `\n`, `\r` or `]` (what ends a run of a long string or
    /// comment).
    @inline(__always) static func beforeLineBreakOrBracket(_ word: UInt64) -> Int {
        leading(match(word, 0x0A) | match(word, 0x0D) | match(word, 0x5D))
    }

    /// The bytes before the first that ends a run of plain code (`WhitespaceLint.endsPlainCode`):
    /// a line break, a quote, `-` or `[`.
    @inline(__always) static func beforePlainCodeEnd(_ word: UInt64) -> Int {
        leading(
            match(word, 0x0A) | match(word, 0x0D) | match(word, 0x22) | match(word, 0x27) | match(word, 0x2D)
                | match(word, 0x5B))
    }
}
