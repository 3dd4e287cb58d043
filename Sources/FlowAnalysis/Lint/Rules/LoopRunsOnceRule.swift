import FlowDiagnostics

/// FP452, luacheck 512: A loop whose every way through ends in break or return.
struct LoopRunsOnceRule: LintClass {
    static let code = DiagnosticCode.loopRunsOnce
    static let luacheckNumber = 512

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("loop is executed at most once", "")
    }
}
