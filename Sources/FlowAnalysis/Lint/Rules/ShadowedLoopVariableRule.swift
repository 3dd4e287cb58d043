import FlowDiagnostics

/// FP446, luacheck 423: A local in a nested block hiding a loop variable of the same function.
struct ShadowedLoopVariableRule: LintClass {
    static let code = DiagnosticCode.shadowedLoopVariable
    static let luacheckNumber = 423

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
