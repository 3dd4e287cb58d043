import FlowDiagnostics

/// FP474, luacheck 614: A comment ending in whitespace.
struct TrailingWhitespaceInCommentRule: LintClass {
    static let code = DiagnosticCode.trailingWhitespaceInComment
    static let luacheckNumber = 614

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("trailing whitespace in a comment", "")
    }
}
