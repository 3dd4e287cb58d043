import FlowDiagnostics

/// A local hiding a loop variable of an enclosing function.
struct ShadowedUpvalueLoopVariableRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP449", luacheck: 433, title: "shadowing an upvalue loop variable",
        explanation: "A local hides a loop variable of an enclosing function.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("shadowing upvalue loop variable '\(finding.name)' on line \(finding.detail)", finding.name)
    }

    static func declared(
        _ declaration: Declaration, hiding earlier: ModuleLinter.Variable, in linter: inout ModuleLinter
    ) {
        guard earlier.kind.family == .loop, linter.placement(of: earlier) == .upvalue else { return }
        linter.report(Self.self, declaration, hiding: earlier)
    }
}
