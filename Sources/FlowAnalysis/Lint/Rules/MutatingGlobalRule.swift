import FlowDiagnostics

/// FP410, luacheck 112: A field set on a global that nothing declares.
struct MutatingGlobalRule: LintClass {
    static let code = DiagnosticCode.mutatingGlobal
    static let luacheckNumber = 112

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("mutating non-standard global variable '\(finding.name)'", finding.name)
    }
}
