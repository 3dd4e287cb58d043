import FlowDiagnostics

/// A local's table filled, then replaced before any read.
struct MutatedUnusedValueRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP436", luacheck: 331, title: "value mutated but never accessed",
        explanation: "A table a local is given is filled (`t.x = 1`), then replaced before any read of it.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("value assigned to variable '\(finding.name)' is mutated but never accessed", finding.name)
    }
}
