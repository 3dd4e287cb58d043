import FlowSupport

/// Where a Lua syntax error is, and its message without the `chunk:line:` prefix.
///
/// Lua reports only a line; the column comes from the token its message quotes
/// (`... near 'then'`), found on that line, or is 1 when there is none to find.
package struct SyntaxErrorLocation: Equatable {
    package var message: String
    package var line: Int?
    package var column: Int?

    /// Longest token quoted in a message: an unfinished string quotes everything up to the error.
    package static let maximumTokenLength = 40

    package init(error: LuaError, source: UnsafeRawBufferPointer) {
        var text = error.message
        if let line = error.line {
            // The chunk name in the prefix may be shortened by Lua (LUA_IDSIZE), so cut at ":<line>: ".
            let marker = ":\(line): "
            if let range = text.firstRange(of: marker) { text = String(text[range.upperBound...]) }
        }
        line = error.line
        let token = Self.nearToken(in: text)
        message = Self.shortened(text, token: token)
        if let line = error.line {
            column = Self.column(of: token, onLine: line, in: source)
        }
    }

    /// The token in `... near 'token'` (quotes removed), `<eof>` as is, or nil.
    package static func nearToken(in message: String) -> String? {
        guard let range = message.lastRange(of: " near ") else { return nil }
        let rest = message[range.upperBound...]
        if rest.hasPrefix("'") && rest.hasSuffix("'") && rest.count >= 2 { return String(rest.dropFirst().dropLast()) }
        return String(rest)
    }

    private static func shortened(_ message: String, token: String?) -> String {
        guard let token, token.utf8.count > maximumTokenLength,
            let range = message.lastRange(of: " near ")
        else {
            return message
        }
        let short = String(decoding: token.utf8.prefix(maximumTokenLength), as: UTF8.self)
        return String(message[..<range.lowerBound]) + " near '" + short + "...'"
    }

    /// The 1-based byte column of `token` on `line`; for `<eof>` the end of the line.
    package static func column(of token: String?, onLine line: Int, in source: UnsafeRawBufferPointer) -> Int {
        guard let (start, end) = lineBounds(line, in: source) else { return 1 }
        guard let token, !token.isEmpty else { return 1 }
        if token == "<eof>" { return end - start + 1 }
        let needle = Array(token.utf8.prefix(maximumTokenLength))
        guard needle.count <= end - start else { return 1 }
        var index = start
        while index + needle.count <= end {
            if source[index] == needle[0] {
                var matches = true
                for offset in 1..<needle.count where source[index + offset] != needle[offset] {
                    matches = false
                    break
                }
                if matches { return index - start + 1 }
            }
            index += 1
        }
        return 1
    }

    /// Byte range of a 1-based line, counting line breaks as Lua's lexer does (`\n`, `\r`,
    /// `\r\n` and `\n\r` are each one break).
    package static func lineBounds(_ line: Int, in source: UnsafeRawBufferPointer) -> (Int, Int)? {
        var current = 1
        var index = 0
        let count = source.count
        while current < line {
            guard index < count else { return nil }
            let byte = source[index]
            index += 1
            if byte == 0x0A || byte == 0x0D {
                if index < count, source[index] != byte, source[index] == 0x0A || source[index] == 0x0D { index += 1 }
                current += 1
            }
        }
        var end = index
        while end < count, source[end] != 0x0A, source[end] != 0x0D { end += 1 }
        return (index, end)
    }
}
