import FlowDiagnostics

/// A global set that nothing declares.
struct SettingGlobalRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP409", luacheck: 111, title: "setting a non-standard global",
        explanation:
            "A module assigns a global that neither Lua 5.4, the environment, flowpkg.json's \"globals\" nor .luacheckrc declares (`x = 1`, `function x() end`): often a missing `local`."
    )

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("setting non-standard global variable '\(finding.name)'", finding.name)
    }
}
