import FlowDiagnostics

/// FP422, luacheck 212: An argument (its `...`, its implicit self) never read; `unused_args`, `self = false` leave them out.
struct UnusedArgumentRule: LintClass {
    static let code = DiagnosticCode.unusedArgument
    static let luacheckNumber = 212

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        let name = finding.name
        if finding.detail == "vararg" { return ("unused variable length argument", "...") }
        if name == "self", !options.unusedSelf { return nil }
        return ("unused argument '\(name)'", name)
    }
}
