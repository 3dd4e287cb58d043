import FlowDiagnostics

/// A local set but never read.
struct VariableNeverAccessedRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP426", luacheck: 231, title: "variable never accessed",
        explanation: "A local variable is set, but its value is never read.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("variable '\(finding.name)' is never accessed", finding.name)
    }

    static func variableEnds(_ variable: ModuleLinter.Variable, in linter: inout ModuleLinter) {
        guard !variable.accessed, !variable.mutated, variable.kind.family == .local, variable.assigned else { return }
        linter.report(Self.self, variable)
    }
}
