import FlowDiagnostics

/// FP425, luacheck 221: A local read but never given a value.
struct VariableNeverSetRule: LintClass {
    static let code = DiagnosticCode.variableNeverSet
    static let luacheckNumber = 221

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("variable '\(finding.name)' is never set", finding.name)
    }

    static func variableEnds(_ variable: ModuleLinter.Variable, in linter: inout ModuleLinter) {
        guard variable.accessed, !variable.hasValue, !variable.assigned, variable.kind == .local else { return }
        linter.report(Self.self, variable)
    }
}
