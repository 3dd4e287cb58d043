import FlowDiagnostics

/// FP451, luacheck 511: Code that never runs.
struct UnreachableCodeRule: LintClass {
    static let code = DiagnosticCode.unreachableCode
    static let luacheckNumber = 511

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("unreachable code", "")
    }
}
