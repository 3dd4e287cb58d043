import FlowAnalysis
import FlowDiagnostics

/// The types step of validation (FP9xx): the modules' annotated types, with the environment's
/// definitions, checked by `TypeRules`. A project without annotations pays nothing.
enum TypeCheckStep {
    /// The codes of the types' findings: suppressible, and left warnings by `--strict`.
    static let codes: [DiagnosticCode] = [
        .malformedAnnotation, .argumentTypeMismatch, .tooManyReturns, .tooFewReturns, .unknownClassField,
        .callOfNonFunction, .assignmentTypeMismatch, .deprecatedUse,
    ]

    static func check(project: Project, modules: [ProjectRules.Module]) -> [Diagnostic] {
        let typed = modules.compactMap { module in
            module.facts.types.map { TypeRules.Module(name: module.name.rawValue, file: module.file, types: $0) }
        }
        guard !typed.isEmpty else { return [] }
        var catalog = TypeDefinitions.catalog(forEnvironment: project.projectFile.environment)
        for module in typed { catalog.add(module.types, module: module.name) }
        return TypeRules.check(modules: typed, catalog: catalog)
    }
}
