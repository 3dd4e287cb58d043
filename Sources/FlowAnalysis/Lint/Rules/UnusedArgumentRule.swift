import FlowDiagnostics
import LuaSyntax

/// An argument (its `...`, its implicit self) never read; `unused_args`, `self = false` leave them out.
struct UnusedArgumentRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP422", luacheck: 212, title: "unused argument",
        explanation:
            "A function's argument (its implicit self or its `...` too) is never read; name it `_` when it must be there."
    )

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        let name = finding.name
        if finding.detail == "vararg" { return ("unused variable length argument", "...") }
        if name == "self", !options.unusedSelf { return nil }
        return ("unused argument '\(name)'", name)
    }

    static func variableEnds(_ variable: ModuleLinter.Variable, in linter: inout ModuleLinter) {
        guard !variable.accessed, !variable.mutated, variable.kind.family == .argument, !variable.assigned else {
            return
        }
        linter.report(Self.self, variable)
    }

    /// A `...` the function never uses.
    static func functionEnds(_ frame: ModuleLinter.FunctionFrame, in linter: inout ModuleLinter) {
        guard frame.takesVararg, !frame.usesVararg else { return }
        linter.facts.findings.append(finding(line: frame.varargLine, column: frame.varargColumn, detail: "vararg"))
    }

    static func visits(_ kind: SyntaxKind) -> Bool { kind == .function }

    /// A method's `self` in a chunk that never says `self`: nothing can read it, and the walk
    /// declares none.
    static func visit(_ id: Int32, _ node: SyntaxNode, in linter: inout ModuleLinter) {
        guard node.op & 2 != 0, linter.selfSymbol < 0 else { return }
        let place = id == linter.methodFunction ? linter.colonPlace : (node.line, node.column)
        linter.facts.findings.append(finding(line: place.0, column: place.1, name: "self"))
    }
}
