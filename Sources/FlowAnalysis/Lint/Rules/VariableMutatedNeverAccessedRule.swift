import FlowDiagnostics

/// FP429, luacheck 241: A local table filled but never read.
struct VariableMutatedNeverAccessedRule: LintClass {
    static let code = DiagnosticCode.variableMutatedNeverAccessed
    static let luacheckNumber = 241

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
