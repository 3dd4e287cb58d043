/// Character classes for the lexer's byte checks, indexed by byte.
enum CharClass {
    static let nameStart: UInt8 = 1
    static let nameContinue: UInt8 = 2
    static let digit: UInt8 = 4
    static let hexDigit: UInt8 = 8

    /// Allocated once and never freed: a table the lexer indexes without bounds checks,
    /// followed by `KeywordTable`'s.
    nonisolated(unsafe) static let table: UnsafePointer<UInt8> = {
        let memory = UnsafeMutableRawPointer.allocate(
            byteCount: 256 + KeywordTable.slotCount * MemoryLayout<KeywordTable.Entry>.stride, alignment: 16)
        let table = memory.bindMemory(to: UInt8.self, capacity: 256)
        table.initialize(repeating: 0, count: 256)
        KeywordTable.fill(memory + 256)
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
package struct LuaLexer {
    /// The source bytes followed by at least one 0 byte.
    private(set) var base: UnsafePointer<UInt8>
    /// The number of real source bytes.
    private(set) var end: Int
    let classes: UnsafePointer<UInt8>
    var pos = 0
    var line: Int32 = 1
    var lineStart = 0
    package var symbols = SymbolTable()
    var scratch: [UInt8] = []
    /// Whether a name gets a symbol (its text interned); when not (the formatter, which reads
    /// names from the source), its `symbol` is `LuaLexer.unInterned(at:)` of its offset.
    var internsNames = true

    package init(base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        self.end = count
        self.classes = CharClass.table
        skipPrelude()
    }

    /// Starts over on another source, keeping the memory of its symbol table and scratch buffer.
    package mutating func restart(base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        end = count
        pos = 0
        line = 1
        symbols.removeAll()
        skipPrelude()
    }

    /// Skips a UTF-8 byte order mark, then a first line starting with '#', as Lua's loader does.
    private mutating func skipPrelude() {
        if end >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF { pos = 3 }
        if base[pos] == 35 {
            while pos < end && base[pos] != 10 && base[pos] != 13 { pos += 1 }
        }
        lineStart = 0
    }

    /// The `symbol` of a name not interned, from its byte offset: below -1 (-1 is no symbol).
    @inline(__always)
    static func unInterned(at offset: Int) -> Int32 { Int32(truncatingIfNeeded: -2 &- offset) }

    /// The text of the name at byte `offset` of `source` (a name not interned).
    static func name(at offset: Int, in source: UnsafeBufferPointer<UInt8>) -> String {
        var end = offset + 1
        while end < source.count && CharClass.table[Int(source[end])] & CharClass.nameContinue != 0 { end += 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: source[offset..<end]), as: UTF8.self)
    }

    @inline(__always) private func isNameContinue(_ byte: UInt8) -> Bool {
        classes[Int(byte)] & CharClass.nameContinue != 0
    }
    @inline(__always) func isDigit(_ byte: UInt8) -> Bool { classes[Int(byte)] & CharClass.digit != 0 }
    @inline(__always) func isHexDigit(_ byte: UInt8) -> Bool { classes[Int(byte)] & CharClass.hexDigit != 0 }

    var column: Int32 { Int32(pos - lineStart + 1) }

    func error(_ message: String, line: Int32? = nil, column: Int32? = nil) -> LuaSyntaxError {
        LuaSyntaxError(message: message, line: Int(line ?? self.line), column: Int(column ?? self.column))
    }

    /// Consumes one newline sequence (`\n`, `\r`, `\r\n` or `\n\r`) at `pos`.
    @inline(__always) mutating func newline() {
        let first = base[pos]
        pos += 1
        let second = base[pos]
        if (second == 10 || second == 13) && second != first && pos < end { pos += 1 }
        line += 1
        lineStart = pos
    }

    /// The next token; throws on a lexical error (unfinished string, malformed number, ...).
    ///
    /// The hot loops (spacing, line comments, names) work on a local index, stored back to
    /// `pos` before any helper runs; sources are under 2 GB, so offsets fit an Int32 unchecked.
    mutating func next() throws(LuaSyntaxError) -> LuaToken {
        var token = LuaToken()
        var p = pos
        while true {
            var byte = base[p]
            // Indentation and spacing come in runs: skip them before any bookkeeping.
            while byte == 32 || byte == 9 {
                p &+= 1
                byte = base[p]
            }
            switch byte {
            case 10, 13:
                pos = p
                newline()
                p = pos
                continue
            case 11, 12:
                p &+= 1
                continue
            case 45 where base[p &+ 1] == 45:  // "--"
                token.commentBefore = true
                p &+= 2
                if base[p] == 91 {
                    pos = p
                    if let level = longBracketLevel() {
                        try skipLong(
                            level: level, isComment: true, line: line,
                            column: Int32(truncatingIfNeeded: p &- 2 &- lineStart &+ 1))
                        p = pos
                        continue
                    }
                }
                p = lineCommentEnd(from: p)
                continue
            default:
                break
            }
            token.line = line
            token.column = Int32(truncatingIfNeeded: p &- lineStart &+ 1)
            token.offset = Int32(truncatingIfNeeded: p)
            if classes[Int(byte)] & CharClass.nameStart != 0 {
                let start = p
                repeat { p &+= 1 } while isNameContinue(base[p])
                pos = p
                let length = p &- start
                token.length = Int32(truncatingIfNeeded: length)
                if UInt(bitPattern: length &- 2) <= 6 {  // 2 to 8 bytes: maybe a keyword
                    let key = KeywordTable.key(base + start, length)
                    let entry = KeywordTable.entries(after: classes)[KeywordTable.slot(key: key, length: length)]
                    if entry.key == key && Int(entry.length) == length {
                        token.kind = entry.kind
                        return token
                    }
                }
                guard internsNames else {
                    token.kind = .name
                    token.symbol = Self.unInterned(at: start)
                    return token
                }
                let symbol = symbols.intern(base + start, length)
                if symbol < Int32(LuaTokenKind.eof.rawValue) {
                    // Keywords hold symbol ids 0..<22 in `LuaTokenKind` order (the table catches them first).
                    token.kind = unsafeBitCast(UInt8(truncatingIfNeeded: symbol), to: LuaTokenKind.self)
                } else {
                    token.kind = .name
                    token.symbol = symbol
                }
                return token
            }
            pos = p
            try readToken(byte, into: &token)
            token.length = Int32(truncatingIfNeeded: pos) &- token.offset
            return token
        }
    }

    /// A token that is not a name, starting with `byte` at `pos`: a string, a number, `eof` or
    /// an operator (kept out of `next`'s loop, and inlined back into it).
    @inline(__always)
    private mutating func readToken(_ byte: UInt8, into token: inout LuaToken) throws(LuaSyntaxError) {
        switch byte {
        case 0:
            if pos >= end {
                token.kind = .eof
                return
            }
            throw error("unexpected symbol near '<\\0>'")
        case 34, 39:  // '"' '\''
            token.kind = .string
            token.symbol = try readShortString(quote: byte)
        case 91:  // '['
            if let level = longBracketLevel() {
                token.kind = .string
                token.symbol = try readLongString(level: level, line: token.line, column: token.column)
            } else if base[pos + 1] == 61 {
                throw error("invalid long string delimiter near '[='")
            } else {
                pos += 1
                token.kind = .leftBracket
            }
        case 46:  // '.'
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
        case 45:
            pos += 1
            token.kind = .minus
        default:
            token.kind = try readOperator(byte)
        }
    }

    /// Where the line comment whose text starts at `start` ends: at its line break or the end.
    @inline(__always)
    private func lineCommentEnd(from start: Int) -> Int {
        var p = start
        while true {
            // Eight bytes at a time while none is below 14 (no line break, no NUL, no tab).
            if p &+ 8 <= end {
                let word = UnsafeRawPointer(base + p).loadUnaligned(as: UInt64.self)
                if (word &- 0x0E0E_0E0E_0E0E_0E0E) & ~word & 0x8080_8080_8080_8080 == 0 {
                    p &+= 8
                    continue
                }
            }
            let byte = base[p]
            if byte > 13 { p &+= 1; continue }
            if byte == 10 || byte == 13 || p >= end { return p }
            p &+= 1
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
}
