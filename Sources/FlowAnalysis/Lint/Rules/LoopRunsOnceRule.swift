import FlowDiagnostics
import LuaSyntax

/// A loop whose every way through ends in break or return.
struct LoopRunsOnceRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP452", luacheck: 512, title: "loop executed at most once",
        explanation: "Every way through the loop's body ends in break or return.")

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
