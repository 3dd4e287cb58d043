import FlowDiagnostics

/// FP423, luacheck 213: A loop variable never read.
struct UnusedLoopVariableRule: LintClass {
    static let code = DiagnosticCode.unusedLoopVariable
    static let luacheckNumber = 213

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("unused loop variable '\(finding.name)'", finding.name)
    }
}
