import LuaSyntax

/// How the linter hands its walk to the rules: each hook goes through `LintRuleList.forEach`
/// with a visitor of its own, so that the list is written once and each hook's loop over it is
/// specialised (a rule without the hook costs nothing; one with it, a test of the node's kind).
///
/// The visitors hold the linter by pointer for the length of one hook: a rule's hook takes the
/// linter `inout`, and a visitor cannot hold an `inout` parameter.
extension LintRuleList {
    /// Hands a node to the rules that visit its kind.
    @inline(__always)
    static func visit(_ id: Int32, _ node: SyntaxNode, in linter: inout ModuleLinter) {
        withUnsafeMutablePointer(to: &linter) { pointer in
            var dispatch = NodeDispatch(linter: pointer, id: id, node: node)
            forEach(&dispatch)
        }
    }

    /// Hands a declaration hiding `earlier` to the rules that judge redefinition and shadowing.
    static func declared(
        _ symbol: Int32, line: Int32, column: Int32, hiding earlier: ModuleLinter.Variable,
        in linter: inout ModuleLinter
    ) {
        withUnsafeMutablePointer(to: &linter) { pointer in
            var dispatch = DeclarationDispatch(
                linter: pointer, declaration: Declaration(symbol: symbol, line: line, column: column), earlier: earlier)
            forEach(&dispatch)
        }
    }

    /// Hands a variable whose scope ended to the rules that judge its use.
    static func variableEnds(_ variable: ModuleLinter.Variable, in linter: inout ModuleLinter) {
        withUnsafeMutablePointer(to: &linter) { pointer in
            var dispatch = VariableDispatch(linter: pointer, variable: variable)
            forEach(&dispatch)
        }
    }

    /// Hands a function whose body was walked to the rules that judge it whole.
    static func functionEnds(_ frame: ModuleLinter.FunctionFrame, in linter: inout ModuleLinter) {
        withUnsafeMutablePointer(to: &linter) { pointer in
            var dispatch = FunctionDispatch(linter: pointer, frame: frame)
            forEach(&dispatch)
        }
    }
}

private struct NodeDispatch: LintRuleVisitor {
    let linter: UnsafeMutablePointer<ModuleLinter>
    let id: Int32
    let node: SyntaxNode

    @inline(__always)
    mutating func rule<Rule: LintClass>(_ rule: Rule.Type) {
        if Rule.visits(node.kind) { Rule.visit(id, node, in: &linter.pointee) }
    }
}

private struct DeclarationDispatch: LintRuleVisitor {
    let linter: UnsafeMutablePointer<ModuleLinter>
    let declaration: Declaration
    let earlier: ModuleLinter.Variable

    mutating func rule<Rule: LintClass>(_ rule: Rule.Type) {
        Rule.declared(declaration, hiding: earlier, in: &linter.pointee)
    }
}

private struct VariableDispatch: LintRuleVisitor {
    let linter: UnsafeMutablePointer<ModuleLinter>
    let variable: ModuleLinter.Variable

    mutating func rule<Rule: LintClass>(_ rule: Rule.Type) {
        Rule.variableEnds(variable, in: &linter.pointee)
    }
}

private struct FunctionDispatch: LintRuleVisitor {
    let linter: UnsafeMutablePointer<ModuleLinter>
    let frame: ModuleLinter.FunctionFrame

    mutating func rule<Rule: LintClass>(_ rule: Rule.Type) {
        Rule.functionEnds(frame, in: &linter.pointee)
    }
}
