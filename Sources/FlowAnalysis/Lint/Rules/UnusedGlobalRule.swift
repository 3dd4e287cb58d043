import FlowDiagnostics

/// FP413, luacheck 131: A global defined under `allow_defined` that no module reads.
struct UnusedGlobalRule: LintClass {
    static let code = DiagnosticCode.unusedGlobal
    static let luacheckNumber = 131

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("unused global variable '\(finding.name)'", finding.name)
    }
}
