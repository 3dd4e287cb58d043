import FlowDiagnostics

/// FP435, luacheck 321: A local read where no value can have reached it.
struct UninitializedAccessRule: LintClass {
    static let code = DiagnosticCode.uninitializedAccess
    static let luacheckNumber = 321

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("accessing uninitialized variable '\(finding.name)'", finding.name)
    }
}
