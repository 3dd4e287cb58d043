import FlowDiagnostics
import LuaSyntax

/// `for i = #t, 1` without a negative step.
struct ReversedNumericLoopRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP459", luacheck: 571, title: "numeric for loop from #t up to 1",
        explanation: "`for i = #t, 1 do` without a negative step runs at most once: add `, -1`.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("numeric for loop goes from #(expr) down to 1 but loop step is not negative", "")
    }

    static func visits(_ kind: SyntaxKind) -> Bool { kind == .numericFor }

    /// `for i = #t, 1 do` counts up from the length, so runs at most once.
    static func visit(_ id: Int32, _ node: SyntaxNode, in linter: inout ModuleLinter) {
        guard node.b == 3 else { return }
        let start = linter.nodes[Int(linter.lists[Int(node.a + 1)])]
        let limit = linter.nodes[Int(linter.lists[Int(node.a + 2)])]
        guard start.kind == .unary, start.op == UnaryOperator.length.rawValue, limit.kind == .number else { return }
        let limitText = linter.numeral(limit)
        guard limitText == "1" || limitText == "0" else { return }
        linter.facts.findings.append(finding(line: node.line, column: node.column))
    }
}
