import FlowDiagnostics

/// Indentation with a space followed by a tab.
struct InconsistentIndentationRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP475", luacheck: 621, title: "inconsistent indentation",
        explanation: "A line's indentation has a space followed by a tab.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("inconsistent indentation (SPACE followed by TAB)", "")
    }
}
