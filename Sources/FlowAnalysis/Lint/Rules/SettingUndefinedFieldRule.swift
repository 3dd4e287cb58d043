import FlowDiagnostics

/// A field added to a standard library table.
struct SettingUndefinedFieldRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP414", luacheck: 142, title: "setting an undefined field of a global",
        explanation: "A module adds a field to a standard library table (`table.unpack2 = 1`).")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("setting undefined field '\(finding.detail)' of global '\(finding.name)'", finding.name)
    }
}
