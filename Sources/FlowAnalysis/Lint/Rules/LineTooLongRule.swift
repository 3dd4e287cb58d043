import FlowDiagnostics

/// FP476, luacheck 631: A line over its limit; `name` is its length, `detail` the kind of line, whose limit the options give (none: not reported).
struct LineTooLongRule: LintClass {
    static let code = DiagnosticCode.lineTooLong
    static let luacheckNumber = 631

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        guard let length = Int(finding.name), let limit = options.lineLimit(for: finding.detail), length > limit else {
            return nil
        }
        return ("line is too long (\(length) > \(limit))", "")
    }
}
