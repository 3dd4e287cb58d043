import FlowDiagnostics

/// FP423, luacheck 213: A loop variable never read.
struct UnusedLoopVariableRule: LintClass {
    static let code = DiagnosticCode.unusedLoopVariable
    static let luacheckNumber = 213

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("unused loop variable '\(finding.name)'", finding.name)
    }

    static func variableEnds(_ variable: ModuleLinter.Variable, in linter: inout ModuleLinter) {
        guard !variable.accessed, !variable.mutated, variable.kind.family == .loop, !variable.assigned else { return }
        linter.report(Self.self, variable)
    }
}
