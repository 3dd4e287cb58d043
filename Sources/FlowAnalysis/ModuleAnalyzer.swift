import LuaSyntax

/// Learns a module's `ModuleFacts` from its Lua source: requires, resource uses, string
/// literals, and which globals it reads and writes, resolving every name against the
/// locals in scope (parameters, `for` variables, `local function`, `local _ENV`).
///
/// Entry points for validation: `analyze(_:)` once per module (or a `ReusableModuleAnalyzer`
/// per thread), then `ProjectRules.check`.
public enum ModuleAnalyzer {
    /// The facts of one Lua chunk, or nil when it is not valid Lua (the real compiler reports why).
    public static func analyze(_ source: UnsafeRawBufferPointer) -> ModuleFacts? {
        ReusableModuleAnalyzer().analyze(source)
    }

    /// The facts of one Lua chunk held in an array, or nil when it is not valid Lua.
    public static func analyze(_ source: [UInt8]) -> ModuleFacts? {
        source.withUnsafeBytes { analyze($0) }
    }

    /// Where flowpkg's parser stops on a chunk that is not valid Lua (the token it could not
    /// take), or nil when it parses.
    public static func syntaxErrorPlace(in source: UnsafeRawBufferPointer) -> SourceLocation? {
        do {
            _ = try LuaParser.parse(source)
            return nil
        } catch {
            return SourceLocation(line: error.line, column: error.column)
        }
    }

    /// The facts of an already parsed chunk.
    package static func facts(of tree: SyntaxTree) -> ModuleFacts {
        var collector = FactsCollector()
        var linter = ModuleLinter()
        return tree.nodes.withUnsafeBufferPointer { nodes in
            tree.lists.withUnsafeBufferPointer { lists in
                var facts = collector.collect(nodes: nodes, lists: lists, symbols: tree.symbolTable, root: tree.root)
                facts.lint = tree.source.withUnsafeBytes { source in
                    linter.lint(nodes: nodes, lists: lists, symbols: tree.symbolTable, source: source, root: tree.root)
                }
                facts.lint.noteEmptyStatements(tree.emptyStatements)
                facts.types = tree.source.withUnsafeBytes { ModuleTypes.of(tree, source: $0) }
                return facts
            }
        }
    }
}

/// Analyses modules one after another, keeping its memory from one module to the next: the
/// source copy, the parser's nodes and symbol table, the walker's scope counts. Each module's
/// facts are the same as a fresh analyzer's. Not thread-safe: one per thread.
package final class ReusableModuleAnalyzer {
    /// The source being parsed, followed by the zero bytes the lexer stops at.
    private var buffer: [UInt8] = []
    /// Points into `buffer` only while `analyze` runs; `restart` points it at the next chunk.
    private var parser: LuaParser?
    private var collector = FactsCollector()
    private var linter = ModuleLinter()

    /// Whether each module's types are collected too (`ModuleFacts.types`).
    package var collectsTypes = true

    package init() {}

    /// The facts of one Lua chunk, or nil when it is not valid Lua. Without
    /// `collectsStringLiterals` its `stringLiterals` stay empty: validation needs them only when
    /// the project has resources (FP406), and they are a good part of the walk's cost.
    package func analyze(_ source: UnsafeRawBufferPointer, collectsStringLiterals: Bool = true) -> ModuleFacts? {
        var verdict: SyntaxVerdict?
        return analyze(source, collectsStringLiterals: collectsStringLiterals, verdict: &verdict, screens: false)
    }

    /// The facts of one Lua chunk (nil when the parser rejects it), whether Lua 5.4 certainly
    /// compiles it (`LuaParser.verdict`; when not, only Lua's compiler can tell), and where the
    /// parser stopped when it rejected it.
    package func screen(_ source: UnsafeRawBufferPointer, collectsStringLiterals: Bool = true) -> (
        facts: ModuleFacts?, compilesCertainly: Bool, stop: SourceLocation?
    ) {
        var verdict: SyntaxVerdict?
        let facts = analyze(source, collectsStringLiterals: collectsStringLiterals, verdict: &verdict, screens: true)
        switch verdict {
        case .valid: return (facts, true, nil)
        case .invalid(let error): return (nil, false, SourceLocation(line: error.line, column: error.column))
        case .compilerDecides, nil: return (facts, false, nil)
        }
    }

    private func analyze(
        _ source: UnsafeRawBufferPointer, collectsStringLiterals: Bool, verdict: inout SyntaxVerdict?, screens: Bool
    ) -> ModuleFacts? {
        buffer.removeAll(keepingCapacity: true)
        buffer.reserveCapacity(source.count + 4)
        buffer.append(contentsOf: source)
        for _ in 0..<4 { buffer.append(0) }  // end-of-input sentinels the lexer relies on
        let count = source.count
        return buffer.withUnsafeBufferPointer { bytes -> ModuleFacts? in
            let base = bytes.baseAddress!
            if parser == nil {
                parser = LuaParser(lexer: LuaLexer(base: base, count: count))
            } else {
                parser!.restart(base: base, count: count)
            }
            let root: Int32
            do throws(LuaSyntaxError) {
                root = try parser!.parseChunk()
            } catch {
                verdict = .invalid(error)
                return nil
            }
            if screens { verdict = parser!.verdict(root: root) }
            var facts = collector.collect(
                nodes: parser!.nodes.elements, lists: parser!.lists.elements, symbols: parser!.lexer.symbols,
                root: root, collectsStringLiterals: collectsStringLiterals)
            facts.lint = linter.lint(
                nodes: parser!.nodes.elements, lists: parser!.lists.elements, symbols: parser!.lexer.symbols,
                source: UnsafeRawBufferPointer(start: base, count: count), root: root)
            facts.lint.noteEmptyStatements(parser!.emptyStatements)
            // Every module: one without annotations still calls annotated functions and the host's API.
            if collectsTypes {
                let chunk = UnsafeRawBufferPointer(start: base, count: count)
                facts.types = ModuleTypes.of(
                    nodes: parser!.nodes.elements, lists: parser!.lists.elements, symbols: parser!.lexer.symbols,
                    source: chunk, root: root)
            }
            return facts
        }
    }
}
