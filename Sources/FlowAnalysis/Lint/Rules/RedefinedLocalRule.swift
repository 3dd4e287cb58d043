import FlowDiagnostics

/// FP441, luacheck 411: A local declared again in the same scope.
struct RedefinedLocalRule: LintClass {
    static let code = DiagnosticCode.redefinedLocal
    static let luacheckNumber = 411

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("variable '\(finding.name)' was previously defined on line \(finding.detail)", finding.name)
    }
}
