import FlowDiagnostics

/// FP456, luacheck 541: An empty do..end block.
struct EmptyDoBlockRule: LintClass {
    static let code = DiagnosticCode.emptyDoBlock
    static let luacheckNumber = 541

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("empty do..end block", "")
    }
}
