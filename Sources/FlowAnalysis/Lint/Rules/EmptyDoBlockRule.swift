import FlowDiagnostics
import LuaSyntax

/// FP456, luacheck 541: An empty do..end block.
struct EmptyDoBlockRule: LintClass {
    static let code = DiagnosticCode.emptyDoBlock
    static let luacheckNumber = 541

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
