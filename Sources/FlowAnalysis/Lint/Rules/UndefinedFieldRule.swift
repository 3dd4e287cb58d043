import FlowDiagnostics

/// FP415, luacheck 143: A field a standard library table lacks, read.
struct UndefinedFieldRule: LintClass {
    static let code = DiagnosticCode.undefinedField
    static let luacheckNumber = 143

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("accessing undefined field '\(finding.detail)' of global '\(finding.name)'", finding.name)
    }
}
