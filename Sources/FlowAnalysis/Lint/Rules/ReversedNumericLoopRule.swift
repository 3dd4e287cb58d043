import FlowDiagnostics

/// FP459, luacheck 571: `for i = #t, 1` without a negative step.
struct ReversedNumericLoopRule: LintClass {
    static let code = DiagnosticCode.reversedNumericLoop
    static let luacheckNumber = 571

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("numeric for loop goes from #(expr) down to 1 but loop step is not negative", "")
    }
}
