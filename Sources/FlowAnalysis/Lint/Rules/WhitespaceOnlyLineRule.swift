import FlowDiagnostics

/// A line of nothing but whitespace.
struct WhitespaceOnlyLineRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP471", luacheck: 611, title: "line contains only whitespace",
        explanation: "A line holds nothing but spaces or tabs.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("line contains only whitespace", "")
    }
}
