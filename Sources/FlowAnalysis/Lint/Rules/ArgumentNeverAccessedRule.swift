import FlowDiagnostics

/// An argument set again but never read.
struct ArgumentNeverAccessedRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP427", luacheck: 232, title: "argument never accessed",
        explanation: "An argument is set again, but never read.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("argument '\(finding.name)' is never accessed", finding.name)
    }

    static func variableEnds(_ variable: ModuleLinter.Variable, in linter: inout ModuleLinter) {
        guard !variable.accessed, !variable.mutated, variable.kind.family == .argument, variable.assigned else {
            return
        }
        linter.report(Self.self, variable)
    }
}
