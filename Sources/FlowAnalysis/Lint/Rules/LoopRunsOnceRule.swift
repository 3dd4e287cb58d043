import FlowDiagnostics
import LuaSyntax

/// FP452, luacheck 512: A loop whose every way through ends in break or return.
struct LoopRunsOnceRule: LintClass {
    static let code = DiagnosticCode.loopRunsOnce
    static let luacheckNumber = 512

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("loop is executed at most once", "")
    }

    static func visits(_ kind: SyntaxKind) -> Bool {
        kind == .whileLoop || kind == .repeatLoop || kind == .numericFor || kind == .genericFor
    }

    /// A loop whose every way through its body leaves it.
    static func visit(_ id: Int32, _ node: SyntaxNode, in linter: inout ModuleLinter) {
        let body: Int32
        switch node.kind {
        case .whileLoop: body = node.b
        case .repeatLoop: body = node.a
        case .numericFor: body = node.c
        default: body = linter.lists[Int(node.a + node.b + node.c)]
        }
        if linter.syntax.alwaysLeaves(body) {
            linter.facts.findings.append(finding(line: node.line, column: node.column))
        }
    }
}
