import FlowDiagnostics

/// A local declared again in the same scope.
struct RedefinedLocalRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP441", luacheck: 411, title: "variable redefined",
        explanation: "A local is declared again in the same scope, hiding the first.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("variable '\(finding.name)' was previously defined on line \(finding.detail)", finding.name)
    }

    static func declared(
        _ declaration: Declaration, hiding earlier: ModuleLinter.Variable, in linter: inout ModuleLinter
    ) {
        guard earlier.kind.family == .local, linter.placement(of: earlier) == .sameScope else { return }
        linter.report(Self.self, declaration, hiding: earlier)
    }
}
