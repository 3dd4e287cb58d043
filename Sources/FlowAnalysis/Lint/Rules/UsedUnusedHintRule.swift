import FlowDiagnostics

/// FP424, luacheck 214: An argument named as unused (`_event`) that is read.
struct UsedUnusedHintRule: LintClass {
    static let code = DiagnosticCode.usedUnusedHint
    static let luacheckNumber = 214

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("used variable '\(finding.name)' with unused hint", finding.name)
    }
}
