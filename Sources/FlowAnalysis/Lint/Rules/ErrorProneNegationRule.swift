import FlowDiagnostics
import LuaSyntax

/// `not a == b`: `not` binds tighter than comparison.
struct ErrorProneNegationRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP461", luacheck: 582, title: "error-prone negation",
        explanation: "`not a == b` compares `not a`, a boolean, with b: `not` binds tighter than comparison.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("error-prone negation: negation is executed before relational operator", "")
    }

    static func visits(_ kind: SyntaxKind) -> Bool { kind == .binary }

    /// `not a == b` compares `not a`, a boolean, with b.
    static func visit(_ id: Int32, _ node: SyntaxNode, in linter: inout ModuleLinter) {
        // Runs for every binary operator: a range test, not a dictionary lookup.
        guard BinaryOperator.isComparison(node.op) else { return }
        let left = linter.nodes[Int(node.a)]
        guard left.kind == .unary, left.op == UnaryOperator.not.rawValue else { return }
        linter.facts.findings.append(finding(line: left.line, column: left.column))
    }
}
