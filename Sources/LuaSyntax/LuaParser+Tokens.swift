extension LuaParser {
    /// The tree of `source` and its token stream from one lexing: the parser keeps each token
    /// it reads (the same tokens `LuaTokenStream(source:)` lexes on its own), so a caller that
    /// wants both (the formatter) does not lex the chunk twice. Throws the parser's error.
    package static func parseWithTokens(_ source: [UInt8]) throws(LuaSyntaxError) -> (SyntaxTree, LuaTokenStream) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(source.count + 4)
        bytes.append(contentsOf: source)
        bytes.append(contentsOf: [0, 0, 0, 0])  // end-of-input sentinels the lexer relies on
        let count = source.count
        let outcome: Result<(SyntaxTree, [LuaToken], Int), LuaSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = LuaParser(lexer: LuaLexer(base: buffer.baseAddress!, count: count))
            let preludeEnd = parser.lexer.pos
            parser.recordsTokens = true
            parser.recordedTokens.reserveCapacity(count / 4)
            do throws(LuaSyntaxError) {
                let root = try parser.parseChunk()
                let tree = parser.tree(root: root, source: source)
                return .success((tree, parser.recordedTokens, preludeEnd))
            } catch {
                return .failure(error)
            }
        }
        let (tree, read, preludeEnd) = try outcome.get()
        var tokens = read
        // The stream ends at the first `.eof` (a look past the end reads it again).
        while tokens.count >= 2 && tokens[tokens.count - 2].kind == .eof { tokens.removeLast() }
        return (tree, LuaTokenStream(tokens: tokens, source: source, preludeEnd: preludeEnd))
    }
}
