// Makes the lint rules' registry from their files, so adding a rule is adding its file: reads every
// `Sources/FlowAnalysis/Lint/Rules/*.swift`, each declaring one `LintClass` type named after the
// file and its catalogue entry (`static let entry = LintCatalogueEntry(code:luacheck:title:explanation:)`),
// and writes, as the `RegisterLintRules` build plugin asks:
//
//   LintRuleGenerator catalogue RULES_DIR OUTPUT.swift   FlowDiagnostics' `DiagnosticCode` statics
//                                                        and `DiagnosticCodes.lintRules`
//   LintRuleGenerator rules RULES_DIR OUTPUT.swift       FlowAnalysis' rules' `code`/`luacheckNumber`
//                                                        and `LintRuleList.forEach`
//
// A file without a rule or an entry, or two rules sharing a code or a luacheck number, fails the
// build with `file:line: error: message`. The output is rewritten only when its text changes, so an
// unchanged rule set recompiles nothing.
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 4, ["catalogue", "rules"].contains(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: LintRuleGenerator catalogue|rules RULES_DIR OUTPUT.swift\n".utf8))
    exit(64)
}
do {
    let registry = try RuleRegistry(folder: arguments[2])
    let source = arguments[1] == "catalogue" ? registry.catalogueSource : registry.ruleListSource
    let output = URL(fileURLWithPath: arguments[3])
    if (try? String(contentsOf: output, encoding: .utf8)) != source {
        try Data(source.utf8).write(to: output, options: .atomic)
    }
} catch let error as GeneratorError {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
} catch {
    FileHandle.standardError.write(Data("LintRuleGenerator: error: cannot write \(arguments[3]): \(error)\n".utf8))
    exit(1)
}
