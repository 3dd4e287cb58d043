import FlowDiagnostics

/// A line inside a long string ending in whitespace.
struct TrailingWhitespaceInStringRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP473", luacheck: 613, title: "trailing whitespace in a string",
        explanation: "A line inside a long string ends in spaces or tabs.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("trailing whitespace in a string", "")
    }
}
