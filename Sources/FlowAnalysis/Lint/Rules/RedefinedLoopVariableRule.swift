import FlowDiagnostics

/// FP443, luacheck 413: A local of a loop's body named as its loop variable.
struct RedefinedLoopVariableRule: LintClass {
    static let code = DiagnosticCode.redefinedLoopVariable
    static let luacheckNumber = 413

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("variable '\(finding.name)' was previously defined as a loop variable on line \(finding.detail)", finding.name)
    }
}
