import FlowAnalysis
import FlowDiagnostics
import FlowPackage

extension ProjectCheckCache {
    /// When each of the session's files was last analysed (`ValidationSession.modulesAnalysed`),
    /// in the session's order, which one generation keeps, and its module when it was analysed.
    struct AnalysisStamps {
        var files: [String]
        var stamps: [Int]
        var modules: [ProjectRules.Module?]
    }

    /// What changed since the last check: the modules analysed again or no more, their files, and
    /// those still analysed as they are now.
    struct Changed: Sendable {
        var changes: [ProjectRules.Change] = []
        var files: Set<String> = []
        var analysed: [ProjectRules.Module] = []
    }

    /// The type check's catalogue and findings, kept: each module's findings depend on its own
    /// types and the catalogue alone, and the catalogue on the modules' declarations alone.
    struct KeptTypes {
        var catalog: TypeCatalog
        /// Each typed module's findings, by file.
        var byFile: [String: [Diagnostic]]
        /// The findings in the project's definition files.
        var definitionFindings: [Diagnostic]
    }
}

extension ProjectCheckCache.State {
    /// The type check's findings, as `TypeCheckStep.check` makes them: while no changed module's
    /// declarations changed, the changed modules are checked against the kept catalogue and the
    /// others' findings kept; otherwise the catalogue is made again and every module checked.
    /// The catalogue and the findings are made by `TypeCheckStep`'s own functions.
    mutating func types(_ modules: [ProjectRules.Module], changes: [ProjectRules.Change]?) -> [Diagnostic] {
        guard modules.contains(where: { $0.facts.types != nil }) else {
            types = nil
            return []
        }
        let disabled = setting.luarc.disabled
        func checked(_ module: TypeRules.Module, _ catalog: TypeCatalog) -> [Diagnostic] {
            TypeCheckStep.findings(of: [module], catalog: catalog, disabled: disabled)
        }
        // Taken out, so that `kept` holds its findings alone and changes them in place.
        if let changes,
            !changes.contains(where: { $0.before?.types?.declarations != $0.after?.types?.declarations }),
            var kept = types.take()
        {
            for change in changes {
                kept.byFile[change.file] = nil
                guard let module = modules.first(where: { $0.file == change.file }),
                    let moduleTypes = module.facts.types
                else { continue }
                kept.byFile[change.file] = checked(
                    TypeRules.Module(name: module.name.rawValue, file: module.file, types: moduleTypes), kept.catalog)
            }
            counts.typeChecked = changes.count
            types = kept
        } else {
            let typed = TypeCheckStep.typedModules(modules)
            let definitions = TypeCheckStep.definitionModules(setting.definitions)
            let catalog = TypeCheckStep.catalog(project: setting.project, definitions: definitions, typed: typed)
            var byFile: [String: [Diagnostic]] = [:]
            for module in typed { byFile[module.file] = checked(module, catalog) }
            types = ProjectCheckCache.KeptTypes(
                catalog: catalog, byFile: byFile, definitionFindings: definitions.flatMap { checked($0, catalog) })
            counts.typeChecked = typed.count
        }
        // In no particular order (each file's together): the report is sorted.
        var all: [Diagnostic] = []
        for findings in types?.byFile.values.map({ $0 }) ?? [] { all += findings }
        return all + (types?.definitionFindings ?? [])
    }
}
