import FlowDiagnostics

/// FP434, luacheck 314: A table constructor setting one key twice.
struct FieldOverwrittenRule: LintClass {
    static let code = DiagnosticCode.fieldOverwritten
    static let luacheckNumber = 314

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("value assigned to field '\(finding.name)' is overwritten on line \(finding.detail) before use", finding.name)
    }
}
