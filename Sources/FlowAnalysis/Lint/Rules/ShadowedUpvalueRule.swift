import FlowDiagnostics

/// A local hiding a local of an enclosing function.
struct ShadowedUpvalueRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP447", luacheck: 431, title: "shadowing an upvalue",
        explanation: "A local hides a local of an enclosing function.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("shadowing upvalue '\(finding.name)' on line \(finding.detail)", finding.name)
    }

    static func declared(
        _ declaration: Declaration, hiding earlier: ModuleLinter.Variable, in linter: inout ModuleLinter
    ) {
        guard earlier.kind.family == .local, linter.placement(of: earlier) == .upvalue else { return }
        linter.report(Self.self, declaration, hiding: earlier)
    }
}
