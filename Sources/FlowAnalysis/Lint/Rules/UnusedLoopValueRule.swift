import FlowDiagnostics

/// A loop variable's value replaced before any read.
struct UnusedLoopValueRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP433", luacheck: 313, title: "value of a loop variable is unused",
        explanation: "A loop sets its loop variable again before any read of the value the loop gave it.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("value of loop variable '\(finding.name)' \(fate(finding))", finding.name)
    }
}
