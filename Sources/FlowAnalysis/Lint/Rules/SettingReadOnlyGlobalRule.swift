import FlowDiagnostics

/// FP411, luacheck 121: A global of the library, the environment or `read_globals` set.
struct SettingReadOnlyGlobalRule: LintClass {
    static let code = DiagnosticCode.settingReadOnlyGlobal
    static let luacheckNumber = 121

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("setting read-only global variable '\(finding.name)'", finding.name)
    }
}
