import FlowDiagnostics

/// A line of code ending in whitespace.
struct TrailingWhitespaceRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP472", luacheck: 612, title: "trailing whitespace",
        explanation: "A line of code ends in spaces or tabs.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("line contains trailing whitespace", "")
    }
}
