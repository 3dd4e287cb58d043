import FlowDiagnostics

/// A local of a function's body named as one of its arguments.
struct RedefinedArgumentRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP442", luacheck: 412, title: "argument redefined",
        explanation: "A local of a function's body has the name of one of its arguments.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("variable '\(finding.name)' was previously defined as an argument on line \(finding.detail)", finding.name)
    }

    static func declared(
        _ declaration: Declaration, hiding earlier: ModuleLinter.Variable, in linter: inout ModuleLinter
    ) {
        guard earlier.kind.family == .argument, linter.placement(of: earlier) == .sameScope else { return }
        linter.report(Self.self, declaration, hiding: earlier)
    }
}
