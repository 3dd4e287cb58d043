import FlowDiagnostics

/// FP473, luacheck 613: A line inside a long string ending in whitespace.
struct TrailingWhitespaceInStringRule: LintClass {
    static let code = DiagnosticCode.trailingWhitespaceInString
    static let luacheckNumber = 613

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("trailing whitespace in a string", "")
    }
}
