import FlowDiagnostics

/// FP457, luacheck 542: An empty if, elseif or else branch.
struct EmptyIfBranchRule: LintClass {
    static let code = DiagnosticCode.emptyIfBranch
    static let luacheckNumber = 542

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("empty if branch", "")
    }
}
