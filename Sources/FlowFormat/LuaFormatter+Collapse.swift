import LuaSyntax

/// StyLua's `collapse_simple_statement`: a function whose body is one simple statement
/// (`FunctionOnly`, `Always`) and an `if` guard (`ConditionalOnly`, `Always`) stay on one line
/// when they fit and hold no comment.
extension LuaFormatter {
    var collapsesFunctions: Bool {
        options.collapseSimpleStatement == .functionOnly || options.collapseSimpleStatement == .always
    }

    var collapsesConditionals: Bool {
        options.collapseSimpleStatement == .conditionalOnly || options.collapseSimpleStatement == .always
    }

    /// Whether the block holds one simple statement (StyLua's reading: a `return` or `break`,
    /// a call, or one target given at most one value) and, between tokens `first` and `last`
    /// (the block's closing token), no comment and no function.
    func isSimpleBlock(_ block: SyntaxTree.NodeID, first: Int, last: Int) -> Bool {
        let statements = tree.statements(of: block)
        guard statements.count == 1, let only = statements.first else { return false }
        let node = tree[only]
        switch node.kind {
        case .returnStatement, .breakStatement, .callStatement: break
        case .local, .assignment: guard node.b == 1 && node.c <= 1 else { return false }
        default: return false
        }
        guard first < last else { return false }
        if hasComments(from: first, to: last) { return false }
        return !(first..<last).contains { stream.tokens[$0].kind.is(.kwFunction) }
    }

    /// `head`, the body, `end`: on one line when it fits, else the body on lines of its own.
    func collapsible(_ head: Doc, body inner: Doc, end: Doc) -> Doc {
        .group(.concat([head, .indent(.concat([.line, inner])), .line, end]))
    }
}
