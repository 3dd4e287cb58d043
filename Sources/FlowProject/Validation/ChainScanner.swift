/// Finds the chains Lua's compiler takes quadratic time over, before it is asked to compile them.
///
/// Each `or` and `and` of one expression adds a jump to a list the compiler walks to its end,
/// and so does each `elseif` of one `if`: 100,000 of either take luac 14 seconds, and the 8 MB
/// module limit would allow an hour. The scan counts them per bracket and block level (a comma,
/// `=`, `;` or a statement keyword ends an expression) and skips strings and comments: an
/// approximation that never decides whether code is valid, only whether it is worth compiling.
enum ChainScanner {
    /// More `or`/`and` in one expression, or `elseif` in one `if`, is refused (FP303): luac takes
    /// about 0.1 s for 5,000 and grows with the square.
    static let maximumChain = 5_000

    /// A chain past the limit: what it is made of, and where the limit was passed.
    struct LongChain: Equatable {
        var isElseif: Bool
        var line: Int
        var column: Int

        var message: String {
            isElseif
                ? "an if has more than \(ChainScanner.maximumChain) elseif branches, which Lua's compiler takes time quadratic in"
                : "an expression chains more than \(ChainScanner.maximumChain) 'or'/'and' operators, which Lua's compiler takes time quadratic in"
        }

        var hint: String {
            isElseif
                ? "look the case up in a table of functions instead"
                : "split the expression, or look values up in a table"
        }
    }

    static func longChain(in source: UnsafeRawBufferPointer, limit: Int = maximumChain) -> LongChain? {
        if !mayHoldLongChain(source, limit: limit) { return nil }
        let count = source.count
        // Per open level: operators in the current expression, elseifs of the current if.
        var operators: [Int] = [0]
        var elseifs: [Int] = [0]
        var line = 1
        var lineStart = 0
        var index = 0
        @inline(__always) func isWordByte(_ byte: UInt8) -> Bool {
            (byte >= 97 && byte <= 122) || (byte >= 65 && byte <= 90) || (byte >= 48 && byte <= 57) || byte == 95
        }
        func longBracket(at start: Int) -> Int? {
            var i = start + 1
            while i < count, source[i] == UInt8(ascii: "=") { i += 1 }
            return i < count && source[i] == UInt8(ascii: "[") ? i - start - 1 : nil
        }
        func skipLong(level: Int) {
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
        func open() {
            operators.append(0)
            elseifs.append(0)
        }
        func close() {
            if operators.count > 1 {
                operators.removeLast()
                elseifs.removeLast()
            }
        }
        func word(_ start: Int, _ text: StaticString) -> Bool {
            let length = index - start
            guard length == text.utf8CodeUnitCount else { return false }
            let bytes = text.utf8Start
            for offset in 0..<length where source[start + offset] != bytes[offset] { return false }
            return true
        }
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
                    open()
                    index += 1
                }
            case UInt8(ascii: "("), UInt8(ascii: "{"):
                open()
                index += 1
            case UInt8(ascii: ")"), UInt8(ascii: "}"), UInt8(ascii: "]"):
                close()
                index += 1
            case UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
                operators[operators.count - 1] = 0
                index += 1
            case _ where isWordByte(byte):
                let start = index
                while index < count, isWordByte(source[index]) { index += 1 }
                if word(start, "or") || word(start, "and") {
                    operators[operators.count - 1] += 1
                    if operators[operators.count - 1] > limit {
                        return LongChain(isElseif: false, line: line, column: start - lineStart + 1)
                    }
                } else if word(start, "elseif") {
                    operators[operators.count - 1] = 0
                    elseifs[elseifs.count - 1] += 1
                    if elseifs[elseifs.count - 1] > limit {
                        return LongChain(isElseif: true, line: line, column: start - lineStart + 1)
                    }
                } else if word(start, "function") || word(start, "if") || word(start, "do")
                    || word(start, "repeat")
                {
                    open()
                } else if word(start, "end") || word(start, "until") {
                    close()
                } else if word(start, "then") || word(start, "else") || word(start, "local")
                    || word(start, "return") || word(start, "while") || word(start, "for") || word(start, "in")
                {
                    operators[operators.count - 1] = 0
                }
            default:
                index += 1
            }
        }
        return nil
    }

    /// False when the text is sure to hold no chain past `limit`: every `or` has the bytes "or",
    /// every `and` "an", every `elseif` "if", so fewer of those pairs anywhere (words, strings
    /// and comments included) than the limit means fewer operators. Written as a plain loop over
    /// the bytes because it runs on every module: it spares nearly every module the scan above,
    /// which was 6.7% of validate's CPU on the benchmark tree (Benchmarks/README.md, lint speed).
    static func mayHoldLongChain(_ source: UnsafeRawBufferPointer, limit: Int) -> Bool {
        guard source.count > 2 * limit else { return false }
        var operators = 0
        var conditions = 0
        var previous: UInt8 = 0
        for byte in source {
            if byte == UInt8(ascii: "r") {
                if previous == UInt8(ascii: "o") { operators += 1 }
            } else if byte == UInt8(ascii: "n") {
                if previous == UInt8(ascii: "a") { operators += 1 }
            } else if byte == UInt8(ascii: "f") {
                if previous == UInt8(ascii: "i") { conditions += 1 }
            }
            previous = byte
        }
        return operators > limit || conditions > limit
    }
}
