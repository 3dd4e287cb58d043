import FlowDiagnostics
import LuaSyntax

/// FP454, luacheck 531: More values than targets.
struct AssignmentTooManyValuesRule: LintClass {
    static let code = DiagnosticCode.assignmentTooManyValues
    static let luacheckNumber = 531

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("right side of assignment has more values than left side expects", "")
    }

    static func visits(_ kind: SyntaxKind) -> Bool { kind == .local || kind == .assignment }

    /// More values than names or targets.
    static func visit(_ id: Int32, _ node: SyntaxNode, in linter: inout ModuleLinter) {
        if node.c > node.b { linter.facts.findings.append(finding(line: node.line, column: node.column)) }
    }
}
