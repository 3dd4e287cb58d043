import FlowDiagnostics

/// FP437, luacheck 341: A local indexed to set a field where it is always nil.
struct UninitializedMutationRule: LintClass {
    static let code = DiagnosticCode.uninitializedMutation
    static let luacheckNumber = 341

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("mutating uninitialized variable '\(finding.name)'", finding.name)
    }
}
