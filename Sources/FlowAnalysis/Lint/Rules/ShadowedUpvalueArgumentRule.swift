import FlowDiagnostics

/// FP448, luacheck 432: A local hiding an argument of an enclosing function.
struct ShadowedUpvalueArgumentRule: LintClass {
    static let code = DiagnosticCode.shadowedUpvalueArgument
    static let luacheckNumber = 432

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
