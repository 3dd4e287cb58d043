import FlowDiagnostics

/// FP454, luacheck 531: More values than targets.
struct AssignmentTooManyValuesRule: LintClass {
    static let code = DiagnosticCode.assignmentTooManyValues
    static let luacheckNumber = 531

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("right side of assignment has more values than left side expects", "")
    }
}
