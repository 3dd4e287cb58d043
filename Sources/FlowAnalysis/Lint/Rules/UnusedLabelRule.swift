import FlowDiagnostics

/// A label no goto names.
struct UnusedLabelRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP453", luacheck: 521, title: "unused label",
        explanation: "No goto of the function names this label.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("unused label '\(finding.name)'", finding.name)
    }

    static func functionEnds(_ frame: ModuleLinter.FunctionFrame, in linter: inout ModuleLinter) {
        for label in frame.labels where !frame.gotos.contains(label.symbol) {
            linter.facts.findings.append(
                finding(line: label.line, column: label.column, name: linter.text(label.symbol)))
        }
    }
}
