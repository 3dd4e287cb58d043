import FlowDiagnostics
import FlowPackage

/// Turns each module's lint facts into diagnostics: luacheck's warning classes, each under its
/// own code (`DiagnosticCodes.byLuacheckNumber`), with luacheck's wording, judged against the
/// project's environment (1xx) and filtered by luacheck's options (`LintOptions`).
public enum LintRules {
    /// The lint diagnostics of every module.
    /// - Parameters:
    ///   - environment: the project's environment, extended with its globals.
    ///   - readOnlyGlobals: globals that may be read but not set (Lua's, the environment's,
    ///     `.luacheckrc`'s `read_globals`).
    ///   - options: the options for a module's file (`files[...]` sections applied).
    public static func check(
        modules: [ProjectRules.Module], environment: Environment, readOnlyGlobals: Set<String>,
        options: (String) -> LintOptions
    ) -> [Diagnostic] {
        findings(
            judging: modules, of: modules, tables: ProjectTables(modules: modules, options: options),
            environment: environment, readOnlyGlobals: readOnlyGlobals, options: options)
    }

    /// The lint diagnostics of the modules in `judging`, judged against `tables`, the tables of
    /// every module in `modules` (as `check` makes them for all): an editor's session judges again
    /// only the modules `ProjectTables.update` names.
    public static func findings(
        judging: [ProjectRules.Module], of modules: [ProjectRules.Module], tables: ProjectTables,
        environment: Environment, readOnlyGlobals: Set<String>, options: (String) -> LintOptions
    ) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for module in judging {
            var report = Report(file: module.file, options: options(module.file))
            let lint = module.facts.lint
            for finding in lint.findings {
                guard let rule = LintRuleList.rule(for: finding.warning) else { continue }
                report.add(rule, finding)
            }
            // 131 reads `used`; `implicit`: `allow_defined(_top)` globals, defined everywhere.
            report.judgeGlobals(
                lint, environment: environment, readOnlyGlobals: readOnlyGlobals, read: tables.used,
                implicit: tables.implicit)
            diagnostics += report.diagnostics
            moduleFields(module, tables: tables, modules: modules, into: &diagnostics)
            arity(module, tables: tables, modules: modules, into: &diagnostics)
        }
        return diagnostics
    }

    /// FP481: fields `module` reads from a project module whose table's fields are all known.
    static func moduleFields(
        _ module: ProjectRules.Module, tables: ProjectTables, modules: [ProjectRules.Module],
        into diagnostics: inout [Diagnostic]
    ) {
        for read in module.facts.lint.moduleFieldReads {
            // Fields any module adds to another's table count as the table's.
            guard let target = tables.exportedFields(of: read.global, in: modules), !tables.adds("", to: read.global)
            else { continue }
            if target.fields.contains(where: { $0.name == read.field }) { continue }
            if tables.adds(read.field, to: read.global) { continue }
            var suggestions = Suggestions(target.fields.map(\.name))
            var hint = "the table '\(read.global)' returns has no field '\(read.field)'"
            if let close = suggestions.closest(to: read.field),
                let line = target.fields.first(where: { $0.name == close })?.line
            {
                hint = "did you mean '\(close)'? (\(target.file):\(line))"
            }
            diagnostics.append(
                Diagnostic(
                    severity: .warning, code: .unknownModuleField,
                    message: "module '\(read.global)' has no field '\(read.field)'", file: module.file,
                    line: Int(read.line), column: Int(read.column), hint: hint))
        }
    }

    /// The globals luacheck's `allow_defined` (any set) and `allow_defined_top` (a set outside
    /// every function) define, each module under its own file's options: FP405 counts them defined.
    public static func implicitlyDefinedGlobals(
        modules: [ProjectRules.Module], options: (String) -> LintOptions
    ) -> Set<String> {
        var defined: Set<String> = []
        for module in modules {
            let options = options(module.file)
            guard options.allowDefined || options.allowDefinedTop else { continue }
            for set in module.facts.lint.globalSets where options.allowDefined || set.isTopLevel {
                defined.insert(set.global)
            }
        }
        return defined
    }

    /// luacheck's message for a finding and the name its options' patterns match, or nil when
    /// the options leave it out (line limits, unused arguments and secondaries, self): its rule's.
    static func describe(_ finding: LintFinding, options: LintOptions) -> (String, String)? {
        LintRuleList.rule(for: finding.warning)?.message(for: finding, options: options)
    }
}
