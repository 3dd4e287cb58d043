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
        var diagnostics: [Diagnostic] = []
        let read = usedGlobals(modules)  // 131; `implicit`: `allow_defined(_top)` globals, defined everywhere
        let implicit = implicitlyDefinedGlobals(modules: modules, options: options)
        for module in modules {
            var report = Report(file: module.file, options: options(module.file))
            for finding in module.facts.lint.findings {
                guard let rule = LintRuleList.rule(for: finding.warning) else { continue }
                report.add(rule, finding)
            }
            report.judgeGlobals(
                module.facts.lint, environment: environment, readOnlyGlobals: readOnlyGlobals, read: read,
                implicit: implicit)
            diagnostics += report.diagnostics
        }
        return diagnostics + moduleFields(modules) + arity(modules)
    }

    /// 131: the globals any module reads or mutates (luacheck's "used").
    static func usedGlobals(_ modules: [ProjectRules.Module]) -> Set<String> {
        var used: Set<String> = []
        for module in modules {
            for access in module.facts.globalReads { used.insert(access.name) }
            for set in module.facts.lint.globalFieldSets { used.insert(set.global) }
        }
        return used
    }

    /// FP481: fields read from a project module whose table's fields are all known.
    static func moduleFields(_ modules: [ProjectRules.Module]) -> [Diagnostic] {
        var exported: [String: (file: String, fields: [LintFacts.ExportedField])] = [:]
        for module in modules {
            if let fields = module.facts.lint.exportedFields, !module.facts.replacesEnvironment {
                exported[module.name.rawValue] = (module.file, fields)
            }
        }
        guard !exported.isEmpty else { return [] }
        // Fields any module adds to another's table count as the table's.
        var added: [String: Set<String>] = [:]
        for module in modules {
            for write in module.facts.lint.moduleFieldWrites { added[write.global, default: []].insert(write.field) }
        }
        var diagnostics: [Diagnostic] = []
        for module in modules {
            for read in module.facts.lint.moduleFieldReads {
                guard let target = exported[read.global], added[read.global]?.contains("") != true else { continue }
                if target.fields.contains(where: { $0.name == read.field }) { continue }
                if added[read.global]?.contains(read.field) == true { continue }
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
        return diagnostics
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
