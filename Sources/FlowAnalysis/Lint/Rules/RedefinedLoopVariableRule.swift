import FlowDiagnostics

/// A local of a loop's body named as its loop variable.
struct RedefinedLoopVariableRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP443", luacheck: 413, title: "loop variable redefined",
        explanation: "A local of a loop's body has the name of its loop variable.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("variable '\(finding.name)' was previously defined as a loop variable on line \(finding.detail)", finding.name)
    }

    static func declared(
        _ declaration: Declaration, hiding earlier: ModuleLinter.Variable, in linter: inout ModuleLinter
    ) {
        guard earlier.kind.family == .loop, linter.placement(of: earlier) == .sameScope else { return }
        linter.report(Self.self, declaration, hiding: earlier)
    }
}
