import FlowDiagnostics

/// FP431, luacheck 311: A value given to a local that no read sees.
struct UnusedValueRule: LintClass {
    static let code = DiagnosticCode.unusedValue
    static let luacheckNumber = 311

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("value assigned to variable '\(finding.name)' \(fate(finding))", finding.name)
    }
}
