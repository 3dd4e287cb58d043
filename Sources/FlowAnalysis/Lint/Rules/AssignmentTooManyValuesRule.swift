import FlowDiagnostics
import LuaSyntax

/// More values than targets.
struct AssignmentTooManyValuesRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP454", luacheck: 531, title: "more values than targets",
        explanation: "An assignment has more values on its right side than names on its left: the extra ones are lost.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("right side of assignment has more values than left side expects", "")
    }

    static func visits(_ kind: SyntaxKind) -> Bool { kind == .local || kind == .assignment }

    /// More values than names or targets.
    static func visit(_ id: Int32, _ node: SyntaxNode, in linter: inout ModuleLinter) {
        if node.c > node.b { linter.facts.findings.append(finding(line: node.line, column: node.column)) }
    }
}
