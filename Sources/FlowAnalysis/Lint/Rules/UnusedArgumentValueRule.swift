import FlowDiagnostics

/// FP432, luacheck 312: An argument's value replaced before any read.
struct UnusedArgumentValueRule: LintClass {
    static let code = DiagnosticCode.unusedArgumentValue
    static let luacheckNumber = 312

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("value of argument '\(finding.name)' \(fate(finding))", finding.name)
    }
}
