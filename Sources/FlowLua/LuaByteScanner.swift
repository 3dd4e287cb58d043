/// Lua source as the quick scans before compiling see it (``ChainScanner``,
/// ``NestingScanner``): brackets, separators and words, with strings, comments and long
/// brackets skipped and lines counted. No tokenizer: it never decides whether code is valid.
package struct LuaByteScanner {
    /// What the scan stops at.
    package enum Token {
        /// `(`, `{`, or a `[` that opens no long bracket; `start` is its offset.
        case open(start: Int)
        /// `)`, `}` or `]`.
        case close
        /// `,`, `;` or `=`: the end of an expression.
        case separator
        /// A run of letters, digits and `_` (a name, a keyword or part of a number).
        case word(start: Int)
    }

    private let source: UnsafeRawBufferPointer
    private let count: Int
    /// Where the scan is: just past the last token.
    package private(set) var index = 0
    /// The line of `index`, from 1, and the offset that line starts at.
    package private(set) var line = 1
    package private(set) var lineStart = 0

    package init(_ source: UnsafeRawBufferPointer) {
        self.source = source
        count = source.count
    }

    /// The column, from 1, of `offset` on the current line.
    package func column(of offset: Int) -> Int { offset - lineStart + 1 }

    /// Whether the word just scanned, from `start`, is `text`.
    package func word(_ start: Int, is text: StaticString) -> Bool {
        let length = index - start
        guard length == text.utf8CodeUnitCount else { return false }
        let bytes = text.utf8Start
        for offset in 0..<length where source[start + offset] != bytes[offset] { return false }
        return true
    }

    /// The next token, or nil at the end.
    package mutating func next() -> Token? {
        while index < count {
            let byte = source[index]
            switch byte {
            case 0x0A:
                line += 1
                index += 1
                lineStart = index
            case UInt8(ascii: "-") where index + 1 < count && source[index + 1] == UInt8(ascii: "-"):
                index += 2
                if index < count, source[index] == UInt8(ascii: "["), let level = longBracket(at: index) {
                    index += level + 2
                    skipLong(level: level)
                } else {
                    while index < count, source[index] != 0x0A { index += 1 }
                }
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                index += 1
                while index < count, source[index] != byte, source[index] != 0x0A {
                    index += source[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                index += 1
            case UInt8(ascii: "["):
                if let level = longBracket(at: index) {
                    index += level + 2
                    skipLong(level: level)
                } else {
                    index += 1
                    return .open(start: index - 1)
                }
            case UInt8(ascii: "("), UInt8(ascii: "{"):
                index += 1
                return .open(start: index - 1)
            case UInt8(ascii: ")"), UInt8(ascii: "}"), UInt8(ascii: "]"):
                index += 1
                return .close
            case UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
                index += 1
                return .separator
            case _ where Self.isWordByte(byte):
                let start = index
                while index < count, Self.isWordByte(source[index]) { index += 1 }
                return .word(start: start)
            default:
                index += 1
            }
        }
        return nil
    }

    @inline(__always) private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 97 && byte <= 122) || (byte >= 65 && byte <= 90) || (byte >= 48 && byte <= 57) || byte == 95
    }

    /// The level of a long bracket opener `[==[` at `start`, or nil.
    private func longBracket(at start: Int) -> Int? {
        var i = start + 1
        while i < count, source[i] == UInt8(ascii: "=") { i += 1 }
        return i < count && source[i] == UInt8(ascii: "[") ? i - start - 1 : nil
    }

    /// Moves past the long bracket of `level` that closes the one just opened (to the end when
    /// none does), counting its lines.
    private mutating func skipLong(level: Int) {
        while index < count {
            if source[index] == 0x0A {
                line += 1
                lineStart = index + 1
            }
            if source[index] == UInt8(ascii: "]") {
                var i = index + 1
                var equals = 0
                while i < count, source[i] == UInt8(ascii: "=") {
                    i += 1
                    equals += 1
                }
                if equals == level, i < count, source[i] == UInt8(ascii: "]") {
                    index = i + 1
                    return
                }
            }
            index += 1
        }
    }
}
