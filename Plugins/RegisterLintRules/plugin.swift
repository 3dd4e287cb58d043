import Foundation
import PackagePlugin

/// Makes the lint rules' registry from their files (`Sources/FlowAnalysis/Lint/Rules/*.swift`, each a
/// rule with its catalogue entry) by running `LintRuleGenerator` before the target builds: applied to
/// FlowDiagnostics it writes the rules' `DiagnosticCode`s into the catalogue, applied to FlowAnalysis
/// each rule's `code` and `luacheckNumber` and `LintRuleList.forEach`. Every rule file, and the
/// folder (a file added or removed changes its listing), is a declared input, so adding, removing or
/// editing a rule regenerates both on the next build.
@main
struct RegisterLintRules: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let rules = context.package.directoryURL.appendingPathComponent(
            "Sources/FlowAnalysis/Lint/Rules", isDirectory: true)
        let (mode, fileName) =
            switch target.name {
            case "FlowDiagnostics": ("catalogue", "LintRuleCatalogue.swift")
            default: ("rules", "LintRuleRegistry.swift")
            }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent(fileName)
        return [
            .buildCommand(
                displayName: "Registering the lint rules of \(rules.lastPathComponent) in \(target.name)",
                executable: try context.tool(named: "LintRuleGenerator").url,
                arguments: [mode, rules.path, output.path],
                inputFiles: [rules] + ruleFiles(in: rules),
                outputFiles: [output]
            )
        ]
    }

    /// The rule files, so the build system reruns the generator when one changes.
    private func ruleFiles(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".swift") }.sorted().map { folder.appendingPathComponent($0) }
    }
}
