import FlowDiagnostics

/// A field set on a global that nothing declares.
struct MutatingGlobalRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP410", luacheck: 112, title: "mutating a non-standard global",
        explanation: "A module sets a field of a global nothing declares (`x.y = 1`).")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("mutating non-standard global variable '\(finding.name)'", finding.name)
    }
}
