import FlowDiagnostics

/// An argument's value replaced before any read.
struct UnusedArgumentValueRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP432", luacheck: 312, title: "value of an argument is unused",
        explanation:
            "A function sets an argument again before any read of the value the caller passed: the caller's value is lost."
    )

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("value of argument '\(finding.name)' \(fate(finding))", finding.name)
    }
}
