import FlowDiagnostics

/// FP482 and FP483 across the project: a call of a required module's function (`B.f(x)`,
/// `B:m(x)`) judged against the function the module's table surely has, unless some module
/// sets that field (or fills the table in ways no one can follow); and the calls of local
/// functions each module judged itself.
extension LintRules {
    static func arity(_ modules: [ProjectRules.Module]) -> [Diagnostic] {
        var signatures: [String: (file: String, functions: [String: FunctionSignature])] = [:]
        var added: [String: Set<String>] = [:]
        for module in modules {
            for write in module.facts.lint.moduleFieldWrites { added[write.global, default: []].insert(write.field) }
            let lint = module.facts.lint
            if !lint.exportedFunctions.isEmpty, !module.facts.replacesEnvironment {
                signatures[module.name.rawValue] = (
                    module.file, Dictionary(lint.exportedFunctions.map { ($0.name, $0) }) { first, _ in first }
                )
            }
        }
        var diagnostics: [Diagnostic] = []
        for module in modules {
            var findings = module.facts.lint.arityFindings
            for call in module.facts.lint.moduleCalls {
                guard let target = signatures[call.module], let signature = target.functions[call.field],
                    added[call.module]?.contains("") != true, added[call.module]?.contains(call.field) != true,
                    let finding = ModuleLinter.arityFinding(
                        arguments: call.arguments, passesSelf: call.passesSelf, signature: signature, line: call.line,
                        column: call.column,
                        file: target.file)
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
        return diagnostics
    }
}
