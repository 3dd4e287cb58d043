/// luacheck's 6xx classes, read from a module's bytes: a line of only whitespace (611),
/// trailing whitespace in code (612), in a long string (613) or in a comment (614), a space
/// before a tab in the indentation (621), and a line longer than the limit (631, noted with
/// its length and whether it ends in code, a string or a comment, so each limit of
/// luacheck's can apply).
enum WhitespaceLint {
    private enum State: Equatable {
        case code
        case shortString(UInt8)
        case longString(Int)
        case shortComment
        case longComment(Int)
    }

    static func check(_ source: UnsafeRawBufferPointer, into findings: inout [LintFinding]) {
        guard let base = source.baseAddress else { return }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        let count = source.count
        var state = State.code
        var line: Int32 = 1
        var lineStart = 0
        var index = 0

        func endLine(at end: Int) {
            // `end` is the offset of the line break (or of the end of the source).
            var first = end
            while first > lineStart,
                bytes[first - 1] == 0x20 || bytes[first - 1] == 0x09 || bytes[first - 1] == 0x0C
                    || bytes[first - 1] == 0x0B
            {
                first -= 1
            }
            let kind: String
            switch state {
            case .longString, .shortString: kind = "string"
            case .shortComment, .longComment: kind = "comment"
            case .code: kind = "code"
            }
            if first < end {
                let column = Int32(first - lineStart + 1)
                if first == lineStart {
                    if kind == "code" {
                        findings.append(LintFinding(611, line: line, column: 1))
                    } else {
                        findings.append(LintFinding(kind == "string" ? 613 : 614, line: line, column: column))
                    }
                } else {
                    let code = kind == "code" ? 612 : kind == "string" ? 613 : 614
                    findings.append(LintFinding(code, line: line, column: column))
                }
            }
            // Characters, not bytes: a UTF-8 continuation byte starts none.
            var length = 0
            for offset in lineStart..<end where bytes[offset] & 0xC0 != 0x80 { length += 1 }
            // Noted from `shortestLimit` on; `LintRules` keeps those past the limit that applies.
            if length > shortestLimit {
                findings.append(LintFinding(631, line: line, column: 0, name: String(length), detail: kind))
            }
        }

        func checkIndentation() {
            // 621: a space followed by a tab in the indentation of a line of code.
            var offset = lineStart
            var sawSpace = false
            while offset < count, bytes[offset] == 0x20 || bytes[offset] == 0x09 {
                if bytes[offset] == 0x20 {
                    sawSpace = true
                } else if sawSpace {
                    findings.append(LintFinding(621, line: line, column: 1))
                    return
                }
                offset += 1
            }
        }

        func longBracketLevel(at offset: Int) -> Int? {
            // `[` `=`* `[`: the number of `=`.
            guard offset < count, bytes[offset] == UInt8(ascii: "[") else { return nil }
            var level = 0
            var next = offset + 1
            while next < count, bytes[next] == UInt8(ascii: "=") {
                level += 1
                next += 1
            }
            return next < count && bytes[next] == UInt8(ascii: "[") ? level : nil
        }

        func closesLongBracket(at offset: Int, level: Int) -> Bool {
            guard bytes[offset] == UInt8(ascii: "]") else { return false }
            var next = offset + 1
            for _ in 0..<level {
                guard next < count, bytes[next] == UInt8(ascii: "=") else { return false }
                next += 1
            }
            return next < count && bytes[next] == UInt8(ascii: "]")
        }

        // A first line starting with `#` is not Lua (lua5.4 skips it).
        if count > 0, bytes[0] == UInt8(ascii: "#") {
            while index < count, bytes[index] != 0x0A, bytes[index] != 0x0D { index += 1 }
        }
        checkIndentation()
        while index < count {
            let byte = bytes[index]
            if byte == 0x0A || byte == 0x0D {
                endLine(at: index)
                if index + 1 < count, bytes[index + 1] != byte, bytes[index + 1] == 0x0A || bytes[index + 1] == 0x0D {
                    index += 1
                }
                index += 1
                line += 1
                lineStart = index
                if state == .shortComment { state = .code }
                if state == .code { checkIndentation() }
                continue
            }
            switch state {
            case .code:
                if byte == UInt8(ascii: "-"), index + 1 < count, bytes[index + 1] == UInt8(ascii: "-") {
                    if let level = longBracketLevel(at: index + 2) {
                        state = .longComment(level)
                        index += 4 + level
                    } else {
                        state = .shortComment
                        index += 2
                    }
                    continue
                }
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    state = .shortString(byte)
                } else if byte == UInt8(ascii: "["), let level = longBracketLevel(at: index) {
                    state = .longString(level)
                    index += 2 + level
                    continue
                }
            case .shortString(let quote):
                if byte == UInt8(ascii: "\\") {
                    // An escaped line break continues the string on the next line.
                    if index + 1 < count, bytes[index + 1] != 0x0A, bytes[index + 1] != 0x0D { index += 1 }
                } else if byte == quote {
                    state = .code
                }
            case .longString(let level), .longComment(let level):
                if closesLongBracket(at: index, level: level) {
                    state = .code
                    index += 2 + level
                    continue
                }
            case .shortComment:
                break
            }
            index += 1
        }
        if lineStart < count { endLine(at: count) }
    }

    /// Lines at most this long are never noted: a configured `max_line_length` below it is
    /// taken as this.
    static let shortestLimit = 80
}
