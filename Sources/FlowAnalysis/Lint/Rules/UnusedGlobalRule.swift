import FlowDiagnostics

/// A global defined under `allow_defined` that no module reads.
struct UnusedGlobalRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP413", luacheck: 131, title: "unused global",
        explanation: "With .luacheckrc's allow_defined or allow_defined_top, a module defines a global no module reads."
    )

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("unused global variable '\(finding.name)'", finding.name)
    }
}
