import FlowDiagnostics

/// FP471, luacheck 611: A line of nothing but whitespace.
struct WhitespaceOnlyLineRule: LintClass {
    static let code = DiagnosticCode.whitespaceOnlyLine
    static let luacheckNumber = 611

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("line contains only whitespace", "")
    }
}
