import FlowDiagnostics

/// FP455, luacheck 532: Fewer values than targets, the last not a call.
struct AssignmentTooFewValuesRule: LintClass {
    static let code = DiagnosticCode.assignmentTooFewValues
    static let luacheckNumber = 532

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("right side of assignment has less values than left side expects", "")
    }
}
