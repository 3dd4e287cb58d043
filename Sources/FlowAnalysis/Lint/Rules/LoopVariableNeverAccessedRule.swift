import FlowDiagnostics

/// FP428, luacheck 233: A loop variable set but never read.
struct LoopVariableNeverAccessedRule: LintClass {
    static let code = DiagnosticCode.loopVariableNeverAccessed
    static let luacheckNumber = 233

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("loop variable '\(finding.name)' is never accessed", finding.name)
    }

    static func variableEnds(_ variable: ModuleLinter.Variable, in linter: inout ModuleLinter) {
        guard !variable.accessed, !variable.mutated, variable.kind.family == .loop, variable.assigned else { return }
        linter.report(Self.self, variable)
    }
}
