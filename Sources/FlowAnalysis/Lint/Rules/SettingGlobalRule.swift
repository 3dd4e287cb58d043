import FlowDiagnostics

/// FP409, luacheck 111: A global set that nothing declares.
struct SettingGlobalRule: LintClass {
    static let code = DiagnosticCode.settingGlobal
    static let luacheckNumber = 111

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("setting non-standard global variable '\(finding.name)'", finding.name)
    }
}
