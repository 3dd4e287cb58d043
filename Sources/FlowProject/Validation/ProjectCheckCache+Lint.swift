import FlowAnalysis
import FlowDiagnostics

extension ProjectCheckCache {
    /// The lint rules' whole-project tables and each module's lint findings, kept: after an edit
    /// the tables take in the changed modules, and only the modules whose findings the change can
    /// alter (`LintRules.ProjectTables.update`) are judged again; every other module's are kept.
    struct KeptLint {
        var tables: LintRules.ProjectTables
        /// Each module's lint findings, by file.
        var byFile: [String: [Diagnostic]] = [:]
        /// How many modules the last check judged.
        var judged = 0

        /// The lint findings of `modules`, as `LintRules.check` makes them: `changed` says what
        /// changed since `kept` was made (nil: `kept` is made again, from every module), and
        /// `analysed` is every module by file.
        static func check(
            _ kept: inout KeptLint?, modules: [ProjectRules.Module], changed: Changed?,
            analysed: [String: ProjectRules.Module], setting: StaticAnalysisStep.Setting
        ) -> [Diagnostic] {
            // Taken out, so that `lint` holds its dictionaries alone and changes them in place.
            var lint: KeptLint
            let judging: [ProjectRules.Module]
            if let changed, var known = kept.take() {
                let files = known.tables.update(
                    changed: changed.files, now: changed.analysed, options: setting.options)
                for file in files { known.byFile[file] = nil }
                judging = files.compactMap { analysed[$0] }
                lint = known
            } else {
                lint = KeptLint(tables: LintRules.ProjectTables(modules: modules, options: setting.options))
                judging = modules
            }
            let found = LintRules.findings(
                judging: judging, of: modules, tables: lint.tables, environment: setting.environment,
                readOnlyGlobals: setting.readOnlyGlobals, options: setting.options)
            for diagnostic in found { lint.byFile[diagnostic.file ?? "", default: []].append(diagnostic) }
            lint.judged = judging.count
            // In no particular order (each file's together): the report is sorted.
            var all: [Diagnostic] = []
            for findings in lint.byFile.values { all += findings }
            kept = lint
            return all
        }
    }
}
