/// What the cursor is on, read from the tokens of its line: a `require` string, a
/// `getResource` argument, a name, an FP code. Lexical and line by line on purpose: the buffer
/// being typed in rarely parses, and these calls are written on one line.
enum CursorContext: Equatable {
    /// Inside the string of `require "…"` / `require("…")`. `start` is the byte column where the
    /// string's content starts; `text` its whole content, `prefix` the part before the cursor.
    case requireString(text: String, prefix: String, start: Int)
    /// Inside `getResource`'s first string: the resource's name.
    case resourceName(text: String, prefix: String, start: Int, type: String?)
    /// Inside `getResource`'s second string: the type, for the resource `name`.
    case resourceType(name: String, text: String, prefix: String, start: Int)
    /// On a name (`start..<end` byte columns); `isField` after `.` or `:`.
    case name(String, start: Int, end: Int, isField: Bool)
    /// On an FP code, in a comment or anywhere.
    case code(String, start: Int, end: Int)
    case none

    private struct Token {
        enum Kind { case name, string, punctuation }
        var kind: Kind
        var start: Int
        var end: Int
        /// A string's content (between its quotes), a name's text, the punctuation character.
        var text: String
        var contentStart: Int
        var isClosed = true
    }

    /// The context at byte column `column` (0-based) of `line`.
    static func at(_ column: Int, in line: ArraySlice<UInt8>) -> CursorContext {
        let bytes = Array(line)
        if let code = code(at: column, in: bytes) { return code }
        var tokens: [Token] = []
        var index = 0
        func isNameByte(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "_") || (byte >= 0x30 && byte <= 0x39)
                || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
                || byte >= 0x80
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0D {
                index += 1
            } else if byte == UInt8(ascii: "-"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "-") {
                break  // a comment: nothing after it counts
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                var end = index + 1
                var closed = false
                while end < bytes.count {
                    if bytes[end] == UInt8(ascii: "\\") {
                        end += 2
                        continue
                    }
                    if bytes[end] == byte {
                        closed = true
                        break
                    }
                    end += 1
                }
                end = min(end, bytes.count)
                tokens.append(
                    Token(
                        kind: .string, start: index, end: closed ? end + 1 : end,
                        text: String(decoding: bytes[(index + 1)..<end], as: UTF8.self), contentStart: index + 1,
                        isClosed: closed))
                index = closed ? end + 1 : end
            } else if isNameByte(byte) {
                var end = index
                while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
                tokens.append(
                    Token(
                        kind: .name, start: index, end: end, text: String(decoding: bytes[index..<end], as: UTF8.self),
                        contentStart: index))
                index = end
            } else {
                tokens.append(
                    Token(
                        kind: .punctuation, start: index, end: index + 1, text: String(UnicodeScalar(byte)),
                        contentStart: index))
                index += 1
            }
        }
        for (position, token) in tokens.enumerated() {
            switch token.kind {
            case .string:
                // In the content: after the opening quote, up to the closing one.
                guard column > token.start, column < token.end || (!token.isClosed && column == token.end) else {
                    continue
                }
                let prefixEnd = min(column, token.contentStart + token.text.utf8.count)
                let prefix = String(decoding: bytes[token.contentStart..<prefixEnd], as: UTF8.self)
                return stringContext(tokens, at: position, prefix: prefix)
            case .name:
                guard column >= token.start, column <= token.end else { continue }
                let previous = position > 0 ? tokens[position - 1] : nil
                let isField = previous.map { $0.kind == .punctuation && ($0.text == "." || $0.text == ":") } ?? false
                return .name(token.text, start: token.start, end: token.end, isField: isField)
            case .punctuation:
                continue
            }
        }
        return .none
    }

    /// The context of a string token at `position`: a require's module or a getResource argument.
    private static func stringContext(_ tokens: [Token], at position: Int, prefix: String) -> CursorContext {
        let token = tokens[position]
        func isName(_ index: Int, _ name: String) -> Bool {
            index >= 0 && tokens[index].kind == .name && tokens[index].text == name
                && !(index > 0 && [".", ":"].contains(tokens[index - 1].text) && tokens[index - 1].kind == .punctuation)
        }
        func isPunctuation(_ index: Int, _ text: String) -> Bool {
            index >= 0 && tokens[index].kind == .punctuation && tokens[index].text == text
        }
        // The callee before `(`, or right before the string (`require "x"`).
        var before = position - 1
        if isPunctuation(before, "(") { before -= 1 }
        if isName(before, "require") {
            return .requireString(text: token.text, prefix: prefix, start: token.contentStart)
        }
        if isName(before, "getResource"), isPunctuation(position - 1, "(") {
            var type: String?
            if position + 2 < tokens.count, isPunctuation(position + 1, ","), tokens[position + 2].kind == .string {
                type = tokens[position + 2].text
            }
            return .resourceName(text: token.text, prefix: prefix, start: token.contentStart, type: type)
        }
        // `getResource("name", "type")`: the second argument.
        if isPunctuation(position - 1, ","), position >= 4, tokens[position - 2].kind == .string,
            isPunctuation(position - 3, "("), isName(position - 4, "getResource")
        {
            return .resourceType(
                name: tokens[position - 2].text, text: token.text, prefix: prefix, start: token.contentStart)
        }
        return .none
    }

    /// An `FP` and three digits around `column`.
    private static func code(at column: Int, in bytes: [UInt8]) -> CursorContext? {
        guard !bytes.isEmpty else { return nil }
        var start = min(column, bytes.count - 1)
        func isWordByte(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
        }
        if !isWordByte(bytes[start]), start > 0 { start -= 1 }
        while start > 0, isWordByte(bytes[start - 1]) { start -= 1 }
        var end = start
        while end < bytes.count, isWordByte(bytes[end]) { end += 1 }
        guard end - start == 5, column >= start, column <= end, bytes[start] == UInt8(ascii: "F"),
            bytes[start + 1] == UInt8(ascii: "P"), bytes[(start + 2)..<end].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        else { return nil }
        return .code(String(decoding: bytes[start..<end], as: UTF8.self), start: start, end: end)
    }
}

extension CursorContext {
    /// Whether byte column `column` of `line` is inside a quoted string (an odd number of
    /// unescaped quotes of one kind before it, outside comments).
    static func isInsideString(_ column: Int, in line: ArraySlice<UInt8>) -> Bool {
        var quote: UInt8?
        var index = line.startIndex
        let end = min(line.startIndex + column, line.endIndex)
        while index < end {
            let byte = line[index]
            if let open = quote {
                if byte == UInt8(ascii: "\\") {
                    index += 2
                    continue
                }
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "-"), index + 1 < end, line[index + 1] == UInt8(ascii: "-") {
                return true  // a comment: no completion either
            }
            index += 1
        }
        return quote != nil
    }
}
