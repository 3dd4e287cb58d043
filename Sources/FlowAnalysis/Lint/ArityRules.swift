import FlowDiagnostics

/// FP482 and FP483 across the project: a call of a required module's function (`B.f(x)`,
/// `B:m(x)`) judged against the function the module's table surely has, unless some module
/// sets that field (or fills the table in ways no one can follow); and the calls of local
/// functions each module judged itself.
extension LintRules {
    /// `module`'s arity findings, its calls of other modules' functions judged against `tables`.
    static func arity(
        _ module: ProjectRules.Module, tables: ProjectTables, modules: [ProjectRules.Module],
        into diagnostics: inout [Diagnostic]
    ) {
        var findings = module.facts.lint.arityFindings
        for call in module.facts.lint.moduleCalls {
            guard let target = tables.exportedFunctions(of: call.module, in: modules),
                let signature = target.functions[call.field],
                !tables.adds("", to: call.module), !tables.adds(call.field, to: call.module),
                let finding = ModuleLinter.arityFinding(
                    arguments: call.arguments, passesSelf: call.passesSelf, signature: signature, line: call.line,
                    column: call.column, file: target.file)
            else { continue }
            findings.append(finding)
        }
        for finding in findings {
            let code: DiagnosticCode = finding.isMissingArgument ? .missingArgument : .tooManyArguments
            diagnostics.append(
                Diagnostic(
                    severity: code.severity, code: code, message: finding.message, file: module.file,
                    line: Int(finding.line), column: Int(finding.column), hint: finding.hint))
        }
    }
}
