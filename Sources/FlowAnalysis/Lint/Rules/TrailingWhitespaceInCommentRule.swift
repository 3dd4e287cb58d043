import FlowDiagnostics

/// A comment ending in whitespace.
struct TrailingWhitespaceInCommentRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP474", luacheck: 614, title: "trailing whitespace in a comment",
        explanation: "A comment ends in spaces or tabs.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("trailing whitespace in a comment", "")
    }
}
