import FlowDiagnostics
import LuaSyntax

/// `not (a == b)` and the like; `name` is the operator, `detail` its opposite.
struct SimplifiableNegationRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP460", luacheck: 581, title: "negation can be simplified",
        explanation: "`not (a == b)` says `a ~= b` (and the like), if neither side is a table or NaN.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        (
            "'not (x \(finding.name) y)' can be replaced by 'x \(finding.detail) y' (if neither side is a table or NaN)",
            ""
        )
    }

    static func visits(_ kind: SyntaxKind) -> Bool { kind == .unary }

    /// `not (a == b)` and the like, which one comparison says.
    static func visit(_ id: Int32, _ node: SyntaxNode, in linter: inout ModuleLinter) {
        guard node.op == UnaryOperator.not.rawValue else { return }
        let operand = linter.nodes[Int(node.a)]
        guard operand.kind == .paren else { return }
        let inner = linter.nodes[Int(operand.a)]
        guard inner.kind == .binary, BinaryOperator.isComparison(inner.op), let (from, to) = negated[inner.op] else {
            return
        }
        linter.facts.findings.append(finding(line: node.line, column: node.column, name: from, detail: to))
    }

    /// Comparison operators and the one that says their negation.
    static let negated: [UInt8: (String, String)] = [
        BinaryOperator.equal.rawValue: ("==", "~="), BinaryOperator.notEqual.rawValue: ("~=", "=="),
        BinaryOperator.less.rawValue: ("<", ">="), BinaryOperator.lessEqual.rawValue: ("<=", ">"),
        BinaryOperator.greater.rawValue: (">", "<="), BinaryOperator.greaterEqual.rawValue: (">=", "<"),
    ]
}
