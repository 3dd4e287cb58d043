import FlowDiagnostics
import LuaSyntax

/// Fewer values than targets, the last not a call.
struct AssignmentTooFewValuesRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP455", luacheck: 532, title: "fewer values than targets",
        explanation: "An assignment has fewer values than targets, the last not a call: the extra targets get nil.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("right side of assignment has less values than left side expects", "")
    }

    static func visits(_ kind: SyntaxKind) -> Bool { kind == .assignment }

    /// Fewer values than targets, the last value giving one (not a call nor `...`).
    static func visit(_ id: Int32, _ node: SyntaxNode, in linter: inout ModuleLinter) {
        guard node.c < node.b, !linter.syntax.isMultipleValued(linter.lists[Int(node.a + node.b + node.c - 1)]) else {
            return
        }
        linter.facts.findings.append(finding(line: node.line, column: node.column))
    }
}
