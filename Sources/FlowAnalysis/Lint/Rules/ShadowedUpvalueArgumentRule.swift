import FlowDiagnostics

/// A local hiding an argument of an enclosing function.
struct ShadowedUpvalueArgumentRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP448", luacheck: 432, title: "shadowing an upvalue argument",
        explanation: "A local hides an argument of an enclosing function (its implicit self too).")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("shadowing upvalue argument '\(finding.name)' on line \(finding.detail)", finding.name)
    }

    static func declared(
        _ declaration: Declaration, hiding earlier: ModuleLinter.Variable, in linter: inout ModuleLinter
    ) {
        guard earlier.kind.family == .argument, linter.placement(of: earlier) == .upvalue else { return }
        linter.report(Self.self, declaration, hiding: earlier)
    }
}
