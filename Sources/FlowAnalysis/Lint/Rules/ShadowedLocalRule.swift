import FlowDiagnostics

/// A local in a nested block hiding a local of the same function.
struct ShadowedLocalRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP444", luacheck: 421, title: "shadowing a local",
        explanation: "A local in a nested block hides a local of the same function.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("shadowing definition of variable '\(finding.name)' on line \(finding.detail)", finding.name)
    }

    static func declared(
        _ declaration: Declaration, hiding earlier: ModuleLinter.Variable, in linter: inout ModuleLinter
    ) {
        guard earlier.kind.family == .local, linter.placement(of: earlier) == .sameFunction else { return }
        linter.report(Self.self, declaration, hiding: earlier)
    }
}
