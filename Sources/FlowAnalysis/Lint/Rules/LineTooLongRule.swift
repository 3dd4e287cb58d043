import FlowDiagnostics

/// A line over its limit; `name` is its length, `detail` the kind of line, whose limit the options give (none: not reported).
struct LineTooLongRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP476", luacheck: 631, title: "line too long",
        explanation:
            "A line is longer than the limit: 120 characters unless .luacheckrc sets max_line_length (or max_code_line_length, max_string_line_length, max_comment_line_length)."
    )

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        guard let length = Int(finding.name), let limit = options.lineLimit(for: finding.detail), length > limit else {
            return nil
        }
        return ("line is too long (\(length) > \(limit))", "")
    }
}
