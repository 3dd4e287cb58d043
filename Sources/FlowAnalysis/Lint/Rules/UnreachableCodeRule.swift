import FlowDiagnostics
import LuaSyntax

/// Code that never runs.
struct UnreachableCodeRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP451", luacheck: 511, title: "unreachable code",
        explanation:
            "Code after a return, break, goto, an if whose every branch leaves, or an endless loop: it never runs.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("unreachable code", "")
    }

    static func visits(_ kind: SyntaxKind) -> Bool { kind == .block || kind == .ifStatement }

    static func visit(_ id: Int32, _ node: SyntaxNode, in linter: inout ModuleLinter) {
        if node.kind == .block { return afterTerminating(node, in: &linter) }
        // `if false then ... end`: its code never runs.
        for pair in 0..<Int(node.b) {
            let condition = linter.nodes[Int(linter.lists[Int(node.a) + pair * 2])]
            guard condition.kind == .falseLiteral || condition.kind == .nilLiteral,
                let first = linter.syntax.statementsOf(linter.lists[Int(node.a) + pair * 2 + 1]).first
            else { continue }
            let statement = linter.nodes[Int(first)]
            linter.facts.findings.append(finding(line: statement.line, column: statement.column))
        }
    }

    /// The first statement of a block after one that ends every way through it (up to a label).
    private static func afterTerminating(_ block: SyntaxNode, in linter: inout ModuleLinter) {
        var unreachable = false
        for index in Int(block.a)..<Int(block.a + block.b) {
            let statement = linter.lists[index]
            let node = linter.nodes[Int(statement)]
            if node.kind == .label {
                unreachable = false
            } else if unreachable {
                linter.facts.findings.append(finding(line: node.line, column: node.column))
                return
            }
            if !unreachable, linter.syntax.terminates(statement) { unreachable = true }
        }
    }
}
