import FlowDiagnostics

/// A local read where no value can have reached it.
struct UninitializedAccessRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP435", luacheck: 321, title: "accessing an uninitialized variable",
        explanation:
            "A local declared without a value is read where no assignment can have reached it yet: the read is always nil."
    )

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("accessing uninitialized variable '\(finding.name)'", finding.name)
    }
}
