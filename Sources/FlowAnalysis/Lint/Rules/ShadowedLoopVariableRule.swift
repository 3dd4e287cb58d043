import FlowDiagnostics

/// A local in a nested block hiding a loop variable of the same function.
struct ShadowedLoopVariableRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP446", luacheck: 423, title: "shadowing a loop variable",
        explanation: "A local in a nested block hides a loop variable of the same function.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("shadowing definition of loop variable '\(finding.name)' on line \(finding.detail)", finding.name)
    }

    static func declared(
        _ declaration: Declaration, hiding earlier: ModuleLinter.Variable, in linter: inout ModuleLinter
    ) {
        guard earlier.kind.family == .loop, linter.placement(of: earlier) == .sameFunction else { return }
        linter.report(Self.self, declaration, hiding: earlier)
    }
}
