import FlowDiagnostics

/// A loop variable never read.
struct UnusedLoopVariableRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP423", luacheck: 213, title: "unused loop variable",
        explanation: "A loop variable is never read; name it `_` when it must be there.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("unused loop variable '\(finding.name)'", finding.name)
    }

    static func variableEnds(_ variable: ModuleLinter.Variable, in linter: inout ModuleLinter) {
        guard !variable.accessed, !variable.mutated, variable.kind.family == .loop, !variable.assigned else { return }
        linter.report(Self.self, variable)
    }
}
