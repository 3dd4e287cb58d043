import FlowDiagnostics

/// FP472, luacheck 612: A line of code ending in whitespace.
struct TrailingWhitespaceRule: LintClass {
    static let code = DiagnosticCode.trailingWhitespace
    static let luacheckNumber = 612

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("line contains trailing whitespace", "")
    }
}
