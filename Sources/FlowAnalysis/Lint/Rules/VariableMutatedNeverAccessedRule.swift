import FlowDiagnostics

/// A local table filled but never read.
struct VariableMutatedNeverAccessedRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP429", luacheck: 241, title: "variable mutated but never accessed",
        explanation: "A local table is filled (`t.x = 1`) but never read.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("variable '\(finding.name)' is mutated but never accessed", finding.name)
    }

    /// Filling an argument's table, or one the variable did not make, is a use.
    static func variableEnds(_ variable: ModuleLinter.Variable, in linter: inout ModuleLinter) {
        guard !variable.accessed, variable.mutated, variable.kind == .local, variable.holdsNewTable, !variable.assigned
        else { return }
        linter.report(Self.self, variable)
    }
}
