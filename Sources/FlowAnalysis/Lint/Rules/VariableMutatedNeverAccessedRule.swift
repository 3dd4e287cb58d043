import FlowDiagnostics

/// FP429, luacheck 241: A local table filled but never read.
struct VariableMutatedNeverAccessedRule: LintClass {
    static let code = DiagnosticCode.variableMutatedNeverAccessed
    static let luacheckNumber = 241

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("variable '\(finding.name)' is mutated but never accessed", finding.name)
    }
}
