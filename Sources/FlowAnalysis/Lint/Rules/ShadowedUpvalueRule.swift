import FlowDiagnostics

/// FP447, luacheck 431: A local hiding a local of an enclosing function.
struct ShadowedUpvalueRule: LintClass {
    static let code = DiagnosticCode.shadowedUpvalue
    static let luacheckNumber = 431

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("shadowing upvalue '\(finding.name)' on line \(finding.detail)", finding.name)
    }
}
