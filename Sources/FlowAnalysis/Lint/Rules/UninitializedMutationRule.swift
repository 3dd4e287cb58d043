import FlowDiagnostics

/// A local indexed to set a field where it is always nil.
struct UninitializedMutationRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP437", luacheck: 341, title: "mutating an uninitialized variable",
        explanation:
            "A local declared without a value is indexed to set a field (`local t; t.x = 1`) where it is always nil: the assignment fails at run time."
    )

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("mutating uninitialized variable '\(finding.name)'", finding.name)
    }
}
