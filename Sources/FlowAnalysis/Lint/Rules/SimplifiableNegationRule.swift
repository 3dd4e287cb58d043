import FlowDiagnostics

/// FP460, luacheck 581: `not (a == b)` and the like; `name` is the operator, `detail` its opposite.
struct SimplifiableNegationRule: LintClass {
    static let code = DiagnosticCode.simplifiableNegation
    static let luacheckNumber = 581

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        (
            "'not (x \(finding.name) y)' can be replaced by 'x \(finding.detail) y' (if neither side is a table or NaN)",
            ""
        )
    }
}
