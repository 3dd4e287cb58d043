import FlowDiagnostics

/// FP414, luacheck 142: A field added to a standard library table.
struct SettingUndefinedFieldRule: LintClass {
    static let code = DiagnosticCode.settingUndefinedField
    static let luacheckNumber = 142

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("setting undefined field '\(finding.detail)' of global '\(finding.name)'", finding.name)
    }
}
