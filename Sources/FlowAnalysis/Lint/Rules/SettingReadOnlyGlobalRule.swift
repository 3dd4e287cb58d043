import FlowDiagnostics

/// A global of the library, the environment or `read_globals` set.
struct SettingReadOnlyGlobalRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP411", luacheck: 121, title: "setting a read-only global",
        explanation: "A module assigns a global of Lua's standard library or the environment (`string = 2`).")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("setting read-only global variable '\(finding.name)'", finding.name)
    }
}
