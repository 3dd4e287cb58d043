import FlowDiagnostics

/// A local never read; an unused one of several a call gave is a "secondary", which `unused_secondaries = false` leaves out.
struct UnusedVariableRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP421", luacheck: 211, title: "unused variable",
        explanation: "A local variable or local function is never read (a function called only from its own body too).")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        let name = finding.name
        if finding.detail == "secondary", !options.unusedSecondaries { return nil }
        let what = finding.detail == "secondary" ? "variable" : finding.detail
        return ("unused \(what) '\(name)'", name)
    }

    static func variableEnds(_ variable: ModuleLinter.Variable, in linter: inout ModuleLinter) {
        guard !variable.accessed, !variable.mutated, variable.kind.family == .local, !variable.assigned else { return }
        var detail =
            variable.kind == .function ? (variable.accessedInOwnBody ? "recursive function" : "function") : "variable"
        if variable.group >= 0,
            (variable.group..<(variable.group + variable.groupCount)).contains(where: {
                linter.variables[Int($0)].accessed
            })
        {
            detail = "secondary"
        }
        linter.report(Self.self, variable, detail: detail)
    }
}
