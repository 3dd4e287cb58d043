import FlowDiagnostics

/// A value given to a local that no read sees.
struct UnusedValueRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP431", luacheck: 311, title: "value assigned to a variable is unused",
        explanation:
            "A local is given a value that no later read can see: it is overwritten first on every way on, or never read again."
    )

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("value assigned to variable '\(finding.name)' \(fate(finding))", finding.name)
    }
}
