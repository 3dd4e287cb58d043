extension LuaParser {
    /// The tree of `source` and its token stream from one lexing: the parser keeps each token
    /// it reads (the same tokens `LuaTokenStream(source:)` lexes on its own), so a caller that
    /// wants both (the formatter) does not lex the chunk twice. Throws the parser's error.
    /// `internsNames` false: names get no symbol (`SyntaxTree.text(of:)` reads them from the
    /// source), for a caller that compares no names by symbol: the formatter.
    package static func parseWithTokens(_ source: [UInt8], internsNames: Bool = true) throws(LuaSyntaxError) -> (
        SyntaxTree, LuaTokenStream
    ) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(source.count + 4)
        bytes.append(contentsOf: source)
        bytes.append(contentsOf: [0, 0, 0, 0])  // end-of-input sentinels the lexer relies on
        let count = source.count
        let outcome: Result<(SyntaxTree, LuaTokens, Int), LuaSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            var lexer = LuaLexer(base: buffer.baseAddress!, count: count)
            lexer.internsNames = internsNames
            var parser = LuaParser(lexer: lexer)
            let preludeEnd = parser.lexer.pos
            parser.recordsTokens = true
            parser.recordedTokens = ParseBuffer(capacity: count / 4)
            do throws(LuaSyntaxError) {
                let root = try parser.parseChunk()
                let tree = parser.tree(root: root, source: source)
                // The stream ends at the first `.eof` (a look past the end reads it again).
                var read = parser.recordedTokens.count
                while read >= 2 && parser.recordedTokens[read - 2].kind == .eof { read -= 1 }
                let tokens = LuaTokens(taking: &parser.recordedTokens, count: read, sourceCount: count)
                return .success((tree, tokens, preludeEnd))
            } catch {
                return .failure(error)
            }
        }
        let (tree, tokens, preludeEnd) = try outcome.get()
        return (tree, LuaTokenStream(ended: tokens, source: source, preludeEnd: preludeEnd))
    }
}
