import FlowDiagnostics

/// FP436, luacheck 331: A local's table filled, then replaced before any read.
struct MutatedUnusedValueRule: LintClass {
    static let code = DiagnosticCode.mutatedUnusedValue
    static let luacheckNumber = 331

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("value assigned to variable '\(finding.name)' is mutated but never accessed", finding.name)
    }
}
