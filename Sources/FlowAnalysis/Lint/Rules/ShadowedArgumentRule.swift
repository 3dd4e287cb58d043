import FlowDiagnostics

/// A local in a nested block hiding an argument of the same function.
struct ShadowedArgumentRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP445", luacheck: 422, title: "shadowing an argument",
        explanation: "A local in a nested block hides an argument of the same function.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("shadowing definition of argument '\(finding.name)' on line \(finding.detail)", finding.name)
    }

    static func declared(
        _ declaration: Declaration, hiding earlier: ModuleLinter.Variable, in linter: inout ModuleLinter
    ) {
        guard earlier.kind.family == .argument, linter.placement(of: earlier) == .sameFunction else { return }
        linter.report(Self.self, declaration, hiding: earlier)
    }
}
