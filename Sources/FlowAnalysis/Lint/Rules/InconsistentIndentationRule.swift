import FlowDiagnostics

/// FP475, luacheck 621: Indentation with a space followed by a tab.
struct InconsistentIndentationRule: LintClass {
    static let code = DiagnosticCode.inconsistentIndentation
    static let luacheckNumber = 621

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("inconsistent indentation (SPACE followed by TAB)", "")
    }
}
