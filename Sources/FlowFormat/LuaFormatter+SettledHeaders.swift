import LuaSyntax

/// The fast path (LuaFormatter+SettledStatements) for two headers of compound statements: the
/// values of a `for ... in` and the parameters of a function statement, taken as one text when
/// they are on one line without comments and the header fits, which is when the full path
/// prints them flat.
extension LuaFormatter {
    /// ` values do` after the `in` of a `for` header whose first token is `forIndex`, as
    /// `settledCondition` takes a condition; nil when the header holds a comment or does not fit.
    mutating func settledForValues(forIndex: Int) -> Doc? {
        guard settledAllowed else { return nil }
        // `for a, b in`: each token and the space after it, none before a `,` nor after `in`.
        var prefix = -1
        for index in forIndex..<cursor {
            if index > forIndex && stream.hasComment(before: index) { return nil }
            prefix += Int(stream.tokens[index].length) + (kind(at: index + 1 - cursor).is(.comma) ? 0 : 1)
        }
        return settledCondition(closing: .kwDo, prefix: prefix)
    }

    /// The parameter list of a function statement (at its `(`, whose header before it is
    /// `prefix` columns wide) as one text, when it holds only names, `,` and `...`, on one line,
    /// without comments (nor one after its `)`), and fits on the statement's line with ` end`
    /// after it: the full path's group then prints flat. Nil otherwise, nothing consumed.
    mutating func settledParameters(prefix: Int) -> Doc? {
        guard settledAllowed, kind.is(.leftParen) else { return nil }
        let open = cursor
        var bytes: [UInt8] = [40]
        var index = open + 1
        while !stream.tokens[index].kind.is(.rightParen) {
            let token = stream.tokens[index]
            guard token.kind.is(.name) || token.kind.is(.dots) || token.kind.is(.comma) else { return nil }
            let start = Int(token.offset)
            bytes.append(contentsOf: stream.source[start..<(start + Int(token.length))])
            if token.kind.is(.comma) { bytes.append(32) }
            index += 1
        }
        bytes.append(41)
        for position in (open + 1)...(index + 1) where stream.hasComment(before: position) { return nil }
        let from = Int(stream.tokens[open].offset), to = stream.end(index)
        for position in from..<to where stream.source[position] == 10 || stream.source[position] == 13 { return nil }
        var width = 0
        for byte in bytes where byte & 0xC0 != 0x80 { width += 1 }
        let column = (depth + functionIndent) * options.indentColumns + prefix
        guard column + width + 4 <= options.columnWidth else { return nil }
        cursor = index + 1
        return .text(String(decoding: bytes, as: UTF8.self), width: width)
    }

    /// The columns of the tokens from `first` to the one before the cursor written on one line
    /// as a function statement's header writes them (a space after `local` and `function`);
    /// nil when a comment lies between them or before the cursor.
    func headerWidth(from first: Int) -> Int? {
        var width = 0
        for index in first..<cursor {
            if stream.hasComment(before: index + 1) { return nil }
            let token = stream.tokens[index]
            width += Int(token.length) + (token.kind.is(.kwLocal) || token.kind.is(.kwFunction) ? 1 : 0)
        }
        return width
    }
}
