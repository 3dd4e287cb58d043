import FlowDiagnostics

/// FP433, luacheck 313: A loop variable's value replaced before any read.
struct UnusedLoopValueRule: LintClass {
    static let code = DiagnosticCode.unusedLoopValue
    static let luacheckNumber = 313

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("value of loop variable '\(finding.name)' \(fate(finding))", finding.name)
    }
}
