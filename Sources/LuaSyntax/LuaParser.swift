/// A Lua 5.4 parser: turns a chunk's bytes into a `SyntaxTree`, or a `LuaSyntaxError`
/// when the chunk is not valid Lua. It follows the structure of Lua's own `lparser.c`
/// (same precedences, same nesting count), so it accepts what the real compiler accepts.
///
/// The checks Lua's compiler makes beyond the grammar (goto targets, `<const>` assignments,
/// `break` outside a loop, its limits) are `ChunkScreen`'s, after the parse: `verdict()`
/// says whether Lua 5.4 certainly compiles the chunk, so validation can skip compiling it.
package struct LuaParser {
    /// Nesting of statements and expressions past which parsing fails instead of
    /// recursing further (Lua's own compiler gives up at 200, "C stack overflow").
    package static let maximumDepth = 250

    /// Parses a whole chunk. The bytes may begin with a UTF-8 byte order mark and a `#` line.
    package static func parse(_ source: UnsafeRawBufferPointer) throws(LuaSyntaxError) -> SyntaxTree {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(source.count + 4)
        bytes.append(contentsOf: source)
        bytes.append(contentsOf: [0, 0, 0, 0])  // end-of-input sentinels the lexer relies on
        let count = source.count
        let outcome: Result<SyntaxTree, LuaSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = LuaParser(lexer: LuaLexer(base: buffer.baseAddress!, count: count))
            do throws(LuaSyntaxError) {
                let root = try parser.parseChunk()
                return .success(parser.tree(root: root, source: []))
            } catch {
                return .failure(error)
            }
        }
        switch outcome {
        case .success(let tree):
            bytes.removeLast(4)
            return tree.withSource(bytes)
        case .failure(let error):
            throw error
        }
    }

    /// Parses a whole chunk held in an array.
    package static func parse(_ source: [UInt8]) throws(LuaSyntaxError) -> SyntaxTree {
        let outcome: Result<SyntaxTree, LuaSyntaxError> = source.withUnsafeBytes { buffer in
            do throws(LuaSyntaxError) { return .success(try parse(buffer)) } catch { return .failure(error) }
        }
        return try outcome.get()
    }

    package var lexer: LuaLexer
    var token = LuaToken()
    private var ahead: LuaToken?
    package var nodes = ParseBuffer<SyntaxNode>()
    package var lists = ParseBuffer<Int32>()
    /// Child ids under construction; each parse function commits its own run to `lists`.
    var scratch = ParseBuffer<Int32>(capacity: 256)
    var depth = 0
    /// The deepest `depth` reached: Lua's compiler fails past 200 levels ("C stack overflow").
    package var maximumDepthReached = 0
    /// How many locals were declared `<const>` or `<close>` (assignments to them are errors).
    package var attributeCount = 0
    /// Whether the function being parsed takes `...` (the main chunk does).
    var isVararg = true
    /// Where each `;` stands that follows no statement (at a block's start, or after another
    /// `;`): an empty statement, luacheck's 551. One `;` after a statement only ends it.
    package var emptyStatements: [SourceLocation] = []
    /// Whether each token read is kept in `recordedTokens` (`parseWithTokens`: the formatter
    /// wants the tokens too, and this saves it lexing the chunk a second time).
    var recordsTokens = false
    /// The tokens read so far, in order, when `recordsTokens` (a `ParseBuffer`: no uniqueness
    /// check per token; `parseWithTokens` gives it its room).
    var recordedTokens = ParseBuffer<LuaToken>(capacity: 0)

    package init(lexer: LuaLexer) {
        self.lexer = lexer
        let estimate = lexer.end / 5
        nodes = ParseBuffer(capacity: estimate)
        lists = ParseBuffer(capacity: estimate / 2)
    }

    /// Starts over on another chunk (NUL-terminated, as `LuaLexer` wants), keeping the memory of
    /// its arrays and symbol table: parsing many chunks in a row then allocates almost nothing.
    package mutating func restart(base: UnsafePointer<UInt8>, count: Int) {
        lexer.restart(base: base, count: count)
        token = LuaToken()
        ahead = nil
        nodes.removeAll()
        lists.removeAll()
        scratch.removeAll()
        depth = 0
        maximumDepthReached = 0
        attributeCount = 0
        isVararg = true
        emptyStatements.removeAll(keepingCapacity: true)
    }

    // MARK: Tokens

    @inline(__always)
    mutating func advance() throws(LuaSyntaxError) {
        if let next = ahead {
            token = next
            ahead = nil
        } else {
            token = try lexer.next()
            if recordsTokens { recordedTokens.append(token) }
        }
    }

    mutating func peek() throws(LuaSyntaxError) -> LuaTokenKind {
        if ahead == nil {
            let next = try lexer.next()
            if recordsTokens { recordedTokens.append(next) }
            ahead = next
        }
        return ahead!.kind
    }

    /// How the current token reads in "near ..." (its source text, shortened).
    var nearText: String {
        switch token.kind {
        case .eof: return "<eof>"
        case .name, .string, .number:
            let length = min(Int(token.length), 40)
            let start = Int(token.offset)
            return String(decoding: UnsafeBufferPointer(start: lexer.base + start, count: length), as: UTF8.self)
        default:
            return token.kind.display
        }
    }

    // Errors are built out of line, so the checks on every token stay small enough to inline.
    @inline(never)
    func syntaxError(_ message: String) -> LuaSyntaxError {
        LuaSyntaxError(message: "\(message) near '\(nearText)'", line: Int(token.line), column: Int(token.column))
    }

    @inline(__always)
    mutating func expect(_ kind: LuaTokenKind) throws(LuaSyntaxError) {
        guard token.kind == kind else { throw expectedError(kind) }
        try advance()
    }

    @inline(never)
    func expectedError(_ kind: LuaTokenKind) -> LuaSyntaxError {
        syntaxError("'\(kind.display)' expected")
    }

    /// Expects `what` closing `who` opened at `line`, with Lua's message when they are far apart.
    @inline(__always)
    mutating func expectMatch(_ what: LuaTokenKind, opening who: LuaTokenKind, line: Int32) throws(LuaSyntaxError) {
        guard token.kind == what else { throw unmatchedError(what, opening: who, line: line) }
        try advance()
    }

    @inline(never)
    func unmatchedError(_ what: LuaTokenKind, opening who: LuaTokenKind, line: Int32) -> LuaSyntaxError {
        if line == token.line { return syntaxError("'\(what.display)' expected") }
        return syntaxError("'\(what.display)' expected (to close '\(who.display)' at line \(line))")
    }

    @inline(__always)
    mutating func expectName() throws(LuaSyntaxError) -> Int32 {
        guard token.kind == .name else { throw syntaxError("<name> expected") }
        let symbol = token.symbol
        try advance()
        return symbol
    }

    // MARK: Nodes

    @inline(__always)
    mutating func add(
        _ kind: SyntaxKind, op: UInt8 = 0, line: Int32, column: Int32,
        a: Int32 = 0, b: Int32 = 0, c: Int32 = 0
    ) -> Int32 {
        nodes.append(SyntaxNode(kind: kind, op: op, line: line, column: column, a: a, b: b, c: c))
        return Int32(truncatingIfNeeded: nodes.count &- 1)
    }

    /// Moves `scratch[mark...]` to `lists`, returning where the run starts there.
    @inline(__always)
    mutating func commit(from mark: Int) -> Int32 {
        let start = Int32(truncatingIfNeeded: lists.count)
        lists.append(scratch, from: mark)
        scratch.truncate(to: mark)
        return start
    }

    @inline(__always)
    mutating func enterLevel() throws(LuaSyntaxError) {
        depth += 1
        if depth > maximumDepthReached {
            maximumDepthReached = depth
            if depth > LuaParser.maximumDepth { throw tooDeepError() }
        }
    }

    @inline(never)
    func tooDeepError() -> LuaSyntaxError {
        LuaSyntaxError(
            message: "chunk has too many syntax levels (more than \(LuaParser.maximumDepth) nested)",
            line: Int(token.line), column: Int(token.column))
    }

    // MARK: Blocks

    package mutating func parseChunk() throws(LuaSyntaxError) -> Int32 {
        try advance()
        let root = try parseBlock()
        guard token.kind == .eof else { throw syntaxError("'<eof>' expected") }
        return root
    }

    mutating func parseBlock() throws(LuaSyntaxError) -> Int32 {
        let line = token.line, column = token.column
        let mark = scratch.count
        var afterStatement = false
        // Labels in a row (`;` between them at most): Lua's compiler parses each following one
        // inside the one before (`labelstat`), a C level each.
        var labelRun = 0
        loop: while true {
            switch token.kind {
            case .kwElse, .kwElseif, .kwEnd, .eof, .kwUntil:
                break loop
            case .kwReturn:
                // A statement to Lua's compiler, so a C level as well.
                try enterLevel()
                scratch.append(try parseReturn())
                depth -= 1
                break loop
            case .semicolon:
                if !afterStatement {
                    emptyStatements.append(SourceLocation(line: Int(token.line), column: Int(token.column)))
                }
                afterStatement = false
                try advance()
            default:
                labelRun = token.kind == .doubleColon ? labelRun + 1 : 0
                let nesting = max(labelRun - 1, 0)
                depth += nesting
                let statement = try parseStatement()
                depth -= nesting
                if statement >= 0 { scratch.append(statement) }
                afterStatement = true
            }
        }
        let count = Int32(scratch.count - mark)
        return add(.block, line: line, column: column, a: commit(from: mark), b: count)
    }

    mutating func parseReturn() throws(LuaSyntaxError) -> Int32 {
        let line = token.line, column = token.column
        try advance()
        let mark = scratch.count
        switch token.kind {
        case .kwElse, .kwElseif, .kwEnd, .eof, .kwUntil, .semicolon:
            break
        default:
            try parseExpressionList()
        }
        if token.kind == .semicolon { try advance() }
        let count = Int32(scratch.count - mark)
        return add(.returnStatement, line: line, column: column, a: commit(from: mark), b: count)
    }

    /// Parses `expr {',' expr}` onto `scratch`.
    mutating func parseExpressionList() throws(LuaSyntaxError) {
        scratch.append(try parseExpression())
        while token.kind == .comma {
            try advance()
            scratch.append(try parseExpression())
        }
    }
}

extension LuaParser {
    /// The tree of the chunk just parsed (from `root`, which `parseChunk` returned), with its
    /// source: for a second walk of a chunk a reusable parser read, without parsing it again.
    package func tree(root: Int32, source: UnsafeRawBufferPointer) -> SyntaxTree {
        tree(root: root, source: Array(source))
    }

    /// The tree of the chunk just parsed, holding `source`.
    func tree(root: Int32, source: [UInt8]) -> SyntaxTree {
        var tree = SyntaxTree(
            nodes: Array(nodes.elements), lists: Array(lists.elements), symbolTable: lexer.symbols, source: source,
            root: root, lineCount: Int(lexer.line))
        tree.emptyStatements = emptyStatements
        return tree
    }
}

extension SyntaxTree {
    func withSource(_ bytes: [UInt8]) -> SyntaxTree {
        var tree = SyntaxTree(
            nodes: nodes, lists: lists, symbolTable: symbolTable, source: bytes, root: root, lineCount: lineCount)
        tree.emptyStatements = emptyStatements
        return tree
    }
}
