import FlowDiagnostics

/// A loop variable set but never read.
struct LoopVariableNeverAccessedRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP428", luacheck: 233, title: "loop variable never accessed",
        explanation: "A loop variable is set, but never read.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("loop variable '\(finding.name)' is never accessed", finding.name)
    }

    static func variableEnds(_ variable: ModuleLinter.Variable, in linter: inout ModuleLinter) {
        guard !variable.accessed, !variable.mutated, variable.kind.family == .loop, variable.assigned else { return }
        linter.report(Self.self, variable)
    }
}
