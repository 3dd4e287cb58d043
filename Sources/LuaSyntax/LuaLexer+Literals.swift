/// String and number literals, and long brackets (long strings and comments).
extension LuaLexer {
    // MARK: Long brackets

    /// At a '[': the level of a long bracket `[==[` starting here (consuming it), or nil (consuming nothing).
    mutating func longBracketLevel() -> Int? {
        var index = pos + 1
        while base[index] == 61 { index += 1 }
        guard base[index] == 91 else { return nil }
        let level = index - pos - 1
        pos = index + 1
        return level
    }

    /// At `]`: whether the closing bracket of `level` starts here.
    @inline(__always) func closesLong(level: Int) -> Bool {
        var index = pos + 1
        for _ in 0..<level {
            if base[index] != 61 { return false }
            index += 1
        }
        return base[index] == 93
    }

    mutating func skipLong(level: Int, isComment: Bool, line: Int32, column: Int32) throws(LuaSyntaxError) {
        while true {
            let byte = base[pos]
            switch byte {
            case 93 where closesLong(level: level):
                pos += level + 2
                return
            case 10, 13:
                newline()
            case 0 where pos >= end:
                throw error(
                    "unfinished long \(isComment ? "comment" : "string") (starting at line \(line))", line: line,
                    column: column)
            default:
                pos += 1
            }
        }
    }

    mutating func readLongString(level: Int, line: Int32, column: Int32) throws(LuaSyntaxError) -> Int32 {
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
            return symbols.intern(base + start, stop - start)
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

    mutating func internScratch() -> Int32 {
        scratch.withUnsafeBufferPointer { buffer in
            let pointer = buffer.baseAddress ?? base
            return symbols.intern(pointer, buffer.count)
        }
    }

    // MARK: Short strings

    mutating func readShortString(quote: UInt8) throws(LuaSyntaxError) -> Int32 {
        pos += 1
        let start = pos
        while true {
            let byte = base[pos]
            if byte == quote {
                pos += 1
                return symbols.intern(base + start, pos - 1 - start)
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
    mutating func readEscape() throws(LuaSyntaxError) {
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
        case 120:  // \xXX
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
        case 122:  // \z skips the following white space, newlines included
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
        case 117:  // \u{XXX}
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
        case 48...57:  // \ddd
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

    @inline(__always) func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: return byte - 48
        case 65...70: return byte - 55
        case 97...102: return byte - 87
        default: return nil
        }
    }

    /// Lua's extended UTF-8: code points up to 2^31 - 1 in up to six bytes.
    mutating func appendUTF8(_ value: UInt32) {
        if value < 0x80 {
            scratch.append(UInt8(value))
            return
        }
        var bytes: [UInt8] = []
        var rest = value
        var limit: UInt32 = 0x3F  // largest value that fits in the first byte's payload
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
    mutating func readNumber() throws(LuaSyntaxError) {
        let start = pos
        let startColumn = column
        var exponentLower: UInt8 = 101  // 'e'
        if base[pos] == 48 && (base[pos + 1] == 120 || base[pos + 1] == 88) {
            pos += 2
            exponentLower = 112  // 'p'
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

    func isWellFormedNumber(from start: Int, to stop: Int) -> Bool {
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
