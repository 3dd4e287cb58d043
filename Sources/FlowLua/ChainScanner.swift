/// Finds the chains Lua's compiler takes quadratic time over, before it is asked to compile them.
///
/// Each `or` and `and` of one expression adds a jump to a list the compiler walks to its end,
/// and so does each `elseif` of one `if`: 100,000 of either take luac 14 seconds, and the 8 MB
/// module limit would allow an hour. The scan counts them per bracket and block level (a comma,
/// `=`, `;` or a statement keyword ends an expression) and skips strings and comments: an
/// approximation that never decides whether code is valid, only whether it is worth compiling.
package enum ChainScanner {
    /// More `or`/`and` in one expression, or `elseif` in one `if`, is refused (FP303): luac takes
    /// about 0.1 s for 5,000 and grows with the square.
    package static let maximumChain = 5_000

    /// A chain past the limit: what it is made of, and where the limit was passed.
    package struct LongChain: Equatable {
        package var isElseif: Bool
        package var line: Int
        package var column: Int

        package var message: String {
            isElseif
                ? "an if has more than \(ChainScanner.maximumChain) elseif branches, which Lua's compiler takes time quadratic in"
                : "an expression chains more than \(ChainScanner.maximumChain) 'or'/'and' operators, which Lua's compiler takes time quadratic in"
        }

        package var hint: String {
            isElseif
                ? "look the case up in a table of functions instead"
                : "split the expression, or look values up in a table"
        }
    }

    package static func longChain(in source: UnsafeRawBufferPointer, limit: Int = maximumChain) -> LongChain? {
        if !mayHoldLongChain(source, limit: limit) { return nil }
        // Per open level: operators in the current expression, elseifs of the current if.
        var operators: [Int] = [0]
        var elseifs: [Int] = [0]
        var scanner = LuaByteScanner(source)
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
        while let token = scanner.next() {
            switch token {
            case .open: open()
            case .close: close()
            case .separator: operators[operators.count - 1] = 0
            case .word(let start):
                func word(_ text: StaticString) -> Bool { scanner.word(start, is: text) }
                if word("or") || word("and") {
                    operators[operators.count - 1] += 1
                    if operators[operators.count - 1] > limit {
                        return LongChain(isElseif: false, line: scanner.line, column: scanner.column(of: start))
                    }
                } else if word("elseif") {
                    operators[operators.count - 1] = 0
                    elseifs[elseifs.count - 1] += 1
                    if elseifs[elseifs.count - 1] > limit {
                        return LongChain(isElseif: true, line: scanner.line, column: scanner.column(of: start))
                    }
                } else if word("function") || word("if") || word("do") || word("repeat") {
                    open()
                } else if word("end") || word("until") {
                    close()
                } else if word("then") || word("else") || word("local") || word("return") || word("while")
                    || word("for") || word("in")
                {
                    operators[operators.count - 1] = 0
                }
            }
        }
        return nil
    }

    /// False when the text is sure to hold no chain past `limit`: every `or` has the bytes "or",
    /// every `and` "an", every `elseif` "if", so fewer of those pairs anywhere (words, strings
    /// and comments included) than the limit means fewer operators. It runs on every module
    /// past twice the limit in bytes, so it counts eight byte pairs at a time: it spares nearly
    /// every module the scan above, which was 6.7% of validate's CPU on the benchmark tree
    /// (Benchmarks/README.md, lint speed).
    package static func mayHoldLongChain(_ source: UnsafeRawBufferPointer, limit: Int) -> Bool {
        guard source.count > 2 * limit, let base = source.baseAddress else { return false }
        var operators = 0
        var conditions = 0
        let count = source.count
        var index = 0
        // Pairs starting at index..<index+8: the words at index and index + 1.
        while index + 9 <= count {
            let first = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let second = base.loadUnaligned(fromByteOffset: index + 1, as: UInt64.self)
            operators += (equalBytes(first, "o") & equalBytes(second, "r")).nonzeroBitCount
            operators += (equalBytes(first, "a") & equalBytes(second, "n")).nonzeroBitCount
            conditions += (equalBytes(first, "i") & equalBytes(second, "f")).nonzeroBitCount
            index += 8
        }
        while index + 1 < count {
            let byte = source[index]
            let next = source[index + 1]
            if byte == UInt8(ascii: "o") && next == UInt8(ascii: "r") { operators += 1 }
            if byte == UInt8(ascii: "a") && next == UInt8(ascii: "n") { operators += 1 }
            if byte == UInt8(ascii: "i") && next == UInt8(ascii: "f") { conditions += 1 }
            index += 1
        }
        return operators > limit || conditions > limit
    }

    /// The high bit of each byte of `word` that equals `byte`, exactly (no carries between bytes).
    @inline(__always)
    private static func equalBytes(_ word: UInt64, _ byte: Unicode.Scalar) -> UInt64 {
        let difference = word ^ (UInt64(byte.value) &* 0x0101_0101_0101_0101)
        let low7 = 0x7F7F_7F7F_7F7F_7F7F as UInt64
        return ~(((difference & low7) &+ low7) | difference) & 0x8080_8080_8080_8080
    }
}
