import FlowDiagnostics
import FlowPackage

// FP404, FP408: `getResource` calls that name no resource.
extension ProjectRules {
    /// An error (FP404) where the call surely runs when its module loads (at the top level,
    /// unconditionally), else a warning (FP408): `getResource` raises when that call runs.
    static func unknownResources(
        _ modules: [Module], resources: [ResourceKey: String], judging: Set<String>? = nil
    ) -> [Diagnostic] {
        var suggestions = Suggestions(resources.keys.map(\.fileName))
        var typesByName: [String: Set<String>] = [:]
        for key in resources.keys { typesByName[key.name, default: []].insert(key.type) }
        var diagnostics: [Diagnostic] = []
        for module in modules where judging?.contains(module.file) ?? true {
            for use in module.facts.resourceUses {
                let asked = use.type.isEmpty ? use.name : "\(use.name).\(use.type)"
                if typesByName[use.name]?.contains(use.type) == true { continue }
                let sameName = (typesByName[use.name] ?? []).map { $0.isEmpty ? use.name : "\(use.name).\($0)" }
                    .sorted()
                var hint: String
                if !sameName.isEmpty {
                    hint = "resources named '\(use.name)': \(sameName.joined(separator: ", "))"
                } else if let close = suggestions.closest(to: asked) {
                    hint = "did you mean '\(close)'?"
                } else {
                    hint = "add the file to a resources folder, or fix the name"
                }
                if resources.isEmpty { hint = "the project has no resources; add the file to a resources folder" }
                // Certain (issue 34): at a module's top level, unconditionally, the call raises
                // whenever the module loads, reached at start or not.
                let atStart = use.runsAtLoad
                let message = "getResource(\"\(use.name)\", \"\(use.type)\") names no resource of the project"
                let place = use.isInsideFunction ? "inside a function" : "in a condition"
                diagnostics.append(
                    Diagnostic(
                        severity: atStart ? .error : .warning,
                        code: atStart ? .unknownResource : .unknownResourceWhenRun,
                        message: atStart
                            ? message
                            : message + " (reached only when it runs, \(place): that call raises an error then)",
                        file: module.file, line: use.location.line, column: use.location.column, hint: hint))
            }
        }
        return diagnostics
    }
}
