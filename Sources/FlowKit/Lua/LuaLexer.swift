/// Character classes for the lexer's byte checks, indexed by byte.
private enum CharClass {
    static let nameStart: UInt8 = 1
    static let nameContinue: UInt8 = 2
    static let digit: UInt8 = 4
    static let hexDigit: UInt8 = 8

    /// Allocated once and never freed: a table the lexer indexes without bounds checks.
    nonisolated(unsafe) static let table: UnsafePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        table.initialize(repeating: 0, count: 256)
        for byte in 0..<256 {
            var bits: UInt8 = 0
            let isLetter = (65...90).contains(byte) || (97...122).contains(byte) || byte == 95
            let isDigit = (48...57).contains(byte)
            if isLetter { bits |= nameStart | nameContinue }
            if isDigit { bits |= nameContinue | digit | hexDigit }
            if (65...70).contains(byte) || (97...102).contains(byte) { bits |= hexDigit }
            table[byte] = bits
        }
        return UnsafePointer(table)
    }()
}

/// Turns Lua 5.4 source bytes into tokens. Works on a NUL-terminated copy of the
/// source (the terminator is the end-of-input sentinel), and allocates only for
/// symbols it has not seen before and for strings with escapes.
struct LuaLexer {
    /// The source bytes followed by at least one 0 byte.
    let base: UnsafePointer<UInt8>
    /// The number of real source bytes.
    let end: Int
    private let classes: UnsafePointer<UInt8>
    var pos = 0
    var line: Int32 = 1
    var lineStart = 0
    var symbols = SymbolTable()
    private var scratch: [UInt8] = []

    init(base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        self.end = count
        self.classes = CharClass.table
        // A UTF-8 byte order mark, then a first line starting with '#', are skipped as Lua's loader does.
        if count >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF { pos = 3 }
        if base[pos] == 35 {
            while pos < end && base[pos] != 10 && base[pos] != 13 { pos += 1 }
        }
        lineStart = 0
    }

    @inline(__always) private func isNameContinue(_ byte: UInt8) -> Bool { classes[Int(byte)] & CharClass.nameContinue != 0 }
    @inline(__always) private func isDigit(_ byte: UInt8) -> Bool { classes[Int(byte)] & CharClass.digit != 0 }
    @inline(__always) private func isHexDigit(_ byte: UInt8) -> Bool { classes[Int(byte)] & CharClass.hexDigit != 0 }

    var column: Int32 { Int32(pos - lineStart + 1) }

    func error(_ message: String, line: Int32? = nil, column: Int32? = nil) -> LuaSyntaxError {
        LuaSyntaxError(message: message, line: Int(line ?? self.line), column: Int(column ?? self.column))
    }

    /// Consumes one newline sequence (`\n`, `\r`, `\r\n` or `\n\r`) at `pos`.
    @inline(__always) private mutating func newline() {
        let first = base[pos]
        pos += 1
        let second = base[pos]
        if (second == 10 || second == 13) && second != first && pos < end { pos += 1 }
        line += 1
        lineStart = pos
    }

    /// The next token; throws on a lexical error (unfinished string, malformed number, ...).
    mutating func next() throws(LuaSyntaxError) -> LuaToken {
        var token = LuaToken()
        while true {
            let byte = base[pos]
            token.line = line
            token.column = Int32(pos - lineStart + 1)
            token.offset = Int32(pos)
            switch byte {
            case 10, 13:
                newline()
                continue
            case 32, 9, 11, 12:
                pos += 1
                continue
            case 0:
                if pos >= end {
                    token.kind = .eof
                    return token
                }
                throw error("unexpected symbol near '<\\0>'")
            case 45: // '-'
                if base[pos + 1] != 45 {
                    pos += 1
                    token.kind = .minus
                    return token
                }
                pos += 2
                if base[pos] == 91, let level = longBracketLevel() {
                    try skipLong(level: level, isComment: true, line: token.line, column: token.column)
                } else {
                    // Most comment bytes are above '\r': one comparison each.
                    while true {
                        let next = base[pos]
                        if next > 13 { pos += 1; continue }
                        if next == 10 || next == 13 || pos >= end { break }
                        pos += 1
                    }
                }
                continue
            case 34, 39: // '"' '\''
                token.kind = .string
                token.symbol = try readShortString(quote: byte)
            case 91: // '['
                if let level = longBracketLevel() {
                    token.kind = .string
                    token.symbol = try readLongString(level: level, line: token.line, column: token.column)
                } else if base[pos + 1] == 61 {
                    throw error("invalid long string delimiter near '[='")
                } else {
                    pos += 1
                    token.kind = .leftBracket
                }
            case 46: // '.'
                if base[pos + 1] == 46 {
                    if base[pos + 2] == 46 {
                        pos += 3
                        token.kind = .dots
                    } else {
                        pos += 2
                        token.kind = .concat
                    }
                } else if isDigit(base[pos + 1]) {
                    try readNumber()
                    token.kind = .number
                } else {
                    pos += 1
                    token.kind = .dot
                }
            case 48...57:
                try readNumber()
                token.kind = .number
            default:
                if classes[Int(byte)] & CharClass.nameStart != 0 {
                    let start = pos
                    var hash: UInt32 = 2_166_136_261
                    repeat {
                        hash = (hash ^ UInt32(base[pos])) &* 16_777_619
                        pos += 1
                    } while isNameContinue(base[pos])
                    let symbol = symbols.intern(base + start, pos - start, hash: hash)
                    if symbol < Int32(LuaTokenKind.eof.rawValue) {
                        token.kind = LuaTokenKind(rawValue: UInt8(symbol))!
                    } else {
                        token.kind = .name
                        token.symbol = symbol
                    }
                } else {
                    token.kind = try readOperator(byte)
                }
            }
            token.length = Int32(pos) - token.offset
            return token
        }
    }

    @inline(__always)
    private mutating func readOperator(_ byte: UInt8) throws(LuaSyntaxError) -> LuaTokenKind {
        let following = base[pos + 1]
        pos += 1
        switch byte {
        case 43: return .plus
        case 42: return .star
        case 47:
            if following == 47 { pos += 1; return .doubleSlash }
            return .slash
        case 37: return .percent
        case 94: return .caret
        case 35: return .hash
        case 38: return .ampersand
        case 126:
            if following == 61 { pos += 1; return .notEqual }
            return .tilde
        case 124: return .pipe
        case 60:
            if following == 60 { pos += 1; return .shiftLeft }
            if following == 61 { pos += 1; return .lessEqual }
            return .less
        case 62:
            if following == 62 { pos += 1; return .shiftRight }
            if following == 61 { pos += 1; return .greaterEqual }
            return .greater
        case 61:
            if following == 61 { pos += 1; return .equal }
            return .assign
        case 40: return .leftParen
        case 41: return .rightParen
        case 123: return .leftBrace
        case 125: return .rightBrace
        case 93: return .rightBracket
        case 58:
            if following == 58 { pos += 1; return .doubleColon }
            return .colon
        case 59: return .semicolon
        case 44: return .comma
        default:
            pos -= 1
            let shown = byte >= 32 && byte < 127 ? String(UnicodeScalar(byte)) : "<\\\(byte)>"
            throw error("unexpected symbol near '\(shown)'")
        }
    }

    // MARK: Long brackets

    /// At a '[': the level of a long bracket `[==[` starting here (consuming it), or nil (consuming nothing).
    private mutating func longBracketLevel() -> Int? {
        var index = pos + 1
        while base[index] == 61 { index += 1 }
        guard base[index] == 91 else { return nil }
        let level = index - pos - 1
        pos = index + 1
        return level
    }

    /// At `]`: whether the closing bracket of `level` starts here.
    @inline(__always) private func closesLong(level: Int) -> Bool {
        var index = pos + 1
        for _ in 0..<level {
            if base[index] != 61 { return false }
            index += 1
        }
        return base[index] == 93
    }

    private mutating func skipLong(level: Int, isComment: Bool, line: Int32, column: Int32) throws(LuaSyntaxError) {
        while true {
            let byte = base[pos]
            switch byte {
            case 93 where closesLong(level: level):
                pos += level + 2
                return
            case 10, 13:
                newline()
            case 0 where pos >= end:
                throw error("unfinished long \(isComment ? "comment" : "string") (starting at line \(line))", line: line, column: column)
            default:
                pos += 1
            }
        }
    }

    private mutating func readLongString(level: Int, line: Int32, column: Int32) throws(LuaSyntaxError) -> Int32 {
        // A newline right after the opening bracket is not part of the string.
        if base[pos] == 10 || base[pos] == 13 { newline() }
        let start = pos
        var hasCarriageReturn = false
        while true {
            let byte = base[pos]
            if byte == 93 && closesLong(level: level) { break }
            if byte == 13 { hasCarriageReturn = true }
            if byte == 10 || byte == 13 {
                newline()
            } else if byte == 0 && pos >= end {
                throw error("unfinished long string (starting at line \(line))", line: line, column: column)
            } else {
                pos += 1
            }
        }
        let stop = pos
        pos += level + 2
        if !hasCarriageReturn {
            return symbols.intern(base + start, stop - start, hash: SymbolTable.hash(base + start, stop - start))
        }
        // Every newline sequence reads as one '\n', as in Lua.
        scratch.removeAll(keepingCapacity: true)
        var index = start
        while index < stop {
            let byte = base[index]
            index += 1
            if byte == 10 || byte == 13 {
                let next = base[index]
                if (next == 10 || next == 13) && next != byte && index < stop { index += 1 }
                scratch.append(10)
            } else {
                scratch.append(byte)
            }
        }
        return internScratch()
    }

    private mutating func internScratch() -> Int32 {
        scratch.withUnsafeBufferPointer { buffer in
            let pointer = buffer.baseAddress ?? base
            return symbols.intern(pointer, buffer.count, hash: SymbolTable.hash(pointer, buffer.count))
        }
    }

    // MARK: Short strings

    private mutating func readShortString(quote: UInt8) throws(LuaSyntaxError) -> Int32 {
        pos += 1
        let start = pos
        while true {
            let byte = base[pos]
            if byte == quote {
                pos += 1
                return symbols.intern(base + start, pos - 1 - start, hash: SymbolTable.hash(base + start, pos - 1 - start))
            }
            if byte == 92 { break }
            if byte == 10 || byte == 13 || (byte == 0 && pos >= end) { throw error("unfinished string") }
            pos += 1
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + start, count: pos - start))
        while true {
            let byte = base[pos]
            if byte == quote {
                pos += 1
                return internScratch()
            }
            if byte == 10 || byte == 13 || (byte == 0 && pos >= end) { throw error("unfinished string") }
            if byte != 92 {
                scratch.append(byte)
                pos += 1
                continue
            }
            try readEscape()
        }
    }

    /// At a backslash inside a short string: appends the escaped bytes to `scratch`.
    private mutating func readEscape() throws(LuaSyntaxError) {
        let escapeColumn = column
        pos += 1
        let byte = base[pos]
        switch byte {
        case 97: scratch.append(7); pos += 1
        case 98: scratch.append(8); pos += 1
        case 102: scratch.append(12); pos += 1
        case 110: scratch.append(10); pos += 1
        case 114: scratch.append(13); pos += 1
        case 116: scratch.append(9); pos += 1
        case 118: scratch.append(11); pos += 1
        case 92, 34, 39: scratch.append(byte); pos += 1
        case 10, 13:
            scratch.append(10)
            newline()
        case 120: // \xXX
            pos += 1
            var value: UInt8 = 0
            for _ in 0..<2 {
                guard let digit = hexValue(base[pos]) else {
                    throw error("hexadecimal digit expected", column: escapeColumn)
                }
                value = value << 4 | digit
                pos += 1
            }
            scratch.append(value)
        case 122: // \z skips the following white space, newlines included
            pos += 1
            while true {
                let next = base[pos]
                if next == 10 || next == 13 {
                    newline()
                } else if next == 32 || next == 9 || next == 11 || next == 12 {
                    pos += 1
                } else {
                    break
                }
            }
        case 117: // \u{XXX}
            pos += 1
            guard base[pos] == 123 else { throw error("missing '{' in \\u{xxxx}", column: escapeColumn) }
            pos += 1
            guard var value = hexValue(base[pos]).map(UInt32.init) else {
                throw error("hexadecimal digit expected", column: escapeColumn)
            }
            pos += 1
            while let digit = hexValue(base[pos]) {
                guard value <= 0x7FF_FFFF else { throw error("UTF-8 value too large", column: escapeColumn) }
                value = value << 4 | UInt32(digit)
                pos += 1
            }
            guard base[pos] == 125 else { throw error("missing '}' in \\u{xxxx}", column: escapeColumn) }
            pos += 1
            appendUTF8(value)
        case 48...57: // \ddd
            var value = 0
            var digits = 0
            while digits < 3 && isDigit(base[pos]) {
                value = value * 10 + Int(base[pos] - 48)
                pos += 1
                digits += 1
            }
            guard value <= 255 else { throw error("decimal escape too large", column: escapeColumn) }
            scratch.append(UInt8(value))
        default:
            if byte == 0 && pos >= end { throw error("unfinished string") }
            throw error("invalid escape sequence '\\\(String(UnicodeScalar(byte)))'", column: escapeColumn)
        }
    }

    @inline(__always) private func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: return byte - 48
        case 65...70: return byte - 55
        case 97...102: return byte - 87
        default: return nil
        }
    }

    /// Lua's extended UTF-8: code points up to 2^31 - 1 in up to six bytes.
    private mutating func appendUTF8(_ value: UInt32) {
        if value < 0x80 {
            scratch.append(UInt8(value))
            return
        }
        var bytes: [UInt8] = []
        var rest = value
        var limit: UInt32 = 0x3F // largest value that fits in the first byte's payload
        repeat {
            bytes.append(UInt8(0x80 | (rest & 0x3F)))
            rest >>= 6
            limit >>= 1
        } while rest > limit
        let prefix = UInt8(truncatingIfNeeded: (~limit << 1) & 0xFF)
        bytes.append(prefix | UInt8(rest))
        scratch.append(contentsOf: bytes.reversed())
    }

    // MARK: Numbers

    /// Reads a numeral the way Lua's `read_numeral` delimits it, then checks its form.
    private mutating func readNumber() throws(LuaSyntaxError) {
        let start = pos
        let startColumn = column
        var exponentLower: UInt8 = 101 // 'e'
        if base[pos] == 48 && (base[pos + 1] == 120 || base[pos + 1] == 88) {
            pos += 2
            exponentLower = 112 // 'p'
        }
        while true {
            let byte = base[pos]
            if byte | 0x20 == exponentLower {
                pos += 1
                if base[pos] == 43 || base[pos] == 45 { pos += 1 }
            } else if isHexDigit(byte) || byte == 46 {
                pos += 1
            } else {
                break
            }
        }
        if classes[Int(base[pos])] & CharClass.nameStart != 0 { pos += 1 }
        guard isWellFormedNumber(from: start, to: pos) else {
            let text = String(decoding: UnsafeBufferPointer(start: base + start, count: pos - start), as: UTF8.self)
            throw error("malformed number near '\(text)'", column: startColumn)
        }
    }

    private func isWellFormedNumber(from start: Int, to stop: Int) -> Bool {
        var index = start
        var isHex = false
        if base[index] == 48 && stop - start >= 2 && (base[index + 1] | 0x20) == 120 {
            isHex = true
            index += 2
        }
        var mantissaDigits = 0
        func isMantissaDigit(_ byte: UInt8) -> Bool { isHex ? isHexDigit(byte) : isDigit(byte) }
        while index < stop && isMantissaDigit(base[index]) { index += 1; mantissaDigits += 1 }
        if index < stop && base[index] == 46 {
            index += 1
            while index < stop && isMantissaDigit(base[index]) { index += 1; mantissaDigits += 1 }
        }
        if mantissaDigits == 0 { return false }
        if index < stop && (base[index] | 0x20) == (isHex ? 112 : 101) {
            index += 1
            if index < stop && (base[index] == 43 || base[index] == 45) { index += 1 }
            var exponentDigits = 0
            while index < stop && isDigit(base[index]) { index += 1; exponentDigits += 1 }
            if exponentDigits == 0 { return false }
        }
        return index == stop
    }
}
