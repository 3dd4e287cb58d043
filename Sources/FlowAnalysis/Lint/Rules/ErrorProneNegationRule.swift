import FlowDiagnostics

/// FP461, luacheck 582: `not a == b`: `not` binds tighter than comparison.
struct ErrorProneNegationRule: LintClass {
    static let code = DiagnosticCode.errorProneNegation
    static let luacheckNumber = 582

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("error-prone negation: negation is executed before relational operator", "")
    }
}
