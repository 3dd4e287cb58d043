import FlowDiagnostics

/// A field of a standard library table replaced; the name options match is the global's (`122/debug`).
struct SettingReadOnlyFieldRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP412", luacheck: 122, title: "setting a read-only field of a global",
        explanation: "A module replaces a field of a standard library table (`string.format = f`).")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("setting read-only field '\(finding.detail)' of global '\(finding.name)'", finding.name)
    }
}
