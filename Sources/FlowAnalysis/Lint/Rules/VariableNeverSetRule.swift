import FlowDiagnostics

/// A local read but never given a value.
struct VariableNeverSetRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP425", luacheck: 221, title: "variable never set",
        explanation: "A local variable is read but never given a value: it is always nil.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("variable '\(finding.name)' is never set", finding.name)
    }

    static func variableEnds(_ variable: ModuleLinter.Variable, in linter: inout ModuleLinter) {
        guard variable.accessed, !variable.hasValue, !variable.assigned, variable.kind == .local else { return }
        linter.report(Self.self, variable)
    }
}
