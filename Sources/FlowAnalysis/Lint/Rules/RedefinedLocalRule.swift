import FlowDiagnostics

/// FP441, luacheck 411: A local declared again in the same scope.
struct RedefinedLocalRule: LintClass {
    static let code = DiagnosticCode.redefinedLocal
    static let luacheckNumber = 411

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
