import FlowDiagnostics

/// FP446, luacheck 423: A local in a nested block hiding a loop variable of the same function.
struct ShadowedLoopVariableRule: LintClass {
    static let code = DiagnosticCode.shadowedLoopVariable
    static let luacheckNumber = 423

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("shadowing definition of loop variable '\(finding.name)' on line \(finding.detail)", finding.name)
    }
}
