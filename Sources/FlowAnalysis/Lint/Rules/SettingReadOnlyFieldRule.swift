import FlowDiagnostics

/// FP412, luacheck 122: A field of a standard library table replaced; the name options match is the global's (`122/debug`).
struct SettingReadOnlyFieldRule: LintClass {
    static let code = DiagnosticCode.settingReadOnlyField
    static let luacheckNumber = 122

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("setting read-only field '\(finding.detail)' of global '\(finding.name)'", finding.name)
    }
}
