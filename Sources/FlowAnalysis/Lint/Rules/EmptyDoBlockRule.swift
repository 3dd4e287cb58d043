import FlowDiagnostics
import LuaSyntax

/// An empty do..end block.
struct EmptyDoBlockRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP456", luacheck: 541, title: "empty do..end block",
        explanation: "A do..end block holds nothing.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("empty do..end block", "")
    }

    static func visits(_ kind: SyntaxKind) -> Bool { kind == .doBlock }

    static func visit(_ id: Int32, _ node: SyntaxNode, in linter: inout ModuleLinter) {
        if linter.nodes[Int(node.a)].b == 0 {
            linter.facts.findings.append(finding(line: node.line, column: node.column))
        }
    }
}
