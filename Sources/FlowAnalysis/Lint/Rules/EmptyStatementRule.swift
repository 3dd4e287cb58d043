import FlowDiagnostics

/// FP458, luacheck 551: A `;` that ends no statement.
struct EmptyStatementRule: LintClass {
    static let code = DiagnosticCode.emptyStatement
    static let luacheckNumber = 551

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("empty statement", "")
    }
}
