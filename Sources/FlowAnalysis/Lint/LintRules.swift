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
            let options = options(module.file)
            let lint = module.facts.lint
            func add(_ warning: Int, _ line: Int32, _ column: Int32, name: String, _ message: String) {
                guard options.reports(warning, name: name), let code = DiagnosticCodes.byLuacheckNumber[warning] else {
                    return
                }
                diagnostics.append(
                    Diagnostic(
                        severity: code.severity, code: code, message: message, file: module.file, line: Int(line),
                        column: Int(column)))
            }
            for finding in lint.findings {
                guard let (message, name) = describe(finding, options: options) else { continue }
                // A long line is reported where it passes the limit, as luacheck does.
                let column =
                    finding.warning.rawValue == 631
                    ? Int32((options.lineLimit(for: finding.detail) ?? 0) + 1) : finding.column
                add(finding.warning.rawValue, finding.line, column, name: name, message)
            }
            // luacheck's globals: a free name is a global whatever `_ENV` holds (Lua's manual
            // calls `_ENV.x` a global too), and only the environment or the configuration
            // declares one; setting it declares nothing, in this module or for the others
            // (unless `allow_defined`). A .luacheckrc written for luacheck means the same here.
            var definedHere: Set<String> = []
            for set in lint.globalSets {
                let name = set.global
                if readOnlyGlobals.contains(name) || options.readGlobals.contains(name) {
                    add(121, set.line, set.column, name: name, "setting read-only global variable '\(name)'")
                } else if options.defines(global: name, in: environment) {
                    continue
                } else if options.allowDefined || (options.allowDefinedTop && set.isTopLevel) {
                    if definedHere.insert(name).inserted, !read.contains(name) {
                        add(131, set.line, set.column, name: name, "unused global variable '\(name)'")
                    }
                } else if !implicit.contains(name) {
                    add(111, set.line, set.column, name: name, "setting non-standard global variable '\(name)'")
                }
            }
            for set in lint.globalFieldSets {
                let name = set.global
                if let fields = StandardLibraryFields.fields[name], readOnlyGlobals.contains(name),
                    !options.globals.contains(name)
                {
                    if StandardLibraryFields.isWritable(name, set.field) { continue }
                    if set.field.isEmpty { continue }
                    if fields.contains(set.field) {
                        // luacheck's name for a field warning is the global's (`122/debug`).
                        add(
                            122, set.line, set.column, name: name,
                            "setting read-only field '\(set.field)' of global '\(name)'")
                    } else {
                        add(
                            142, set.line, set.column, name: name,
                            "setting undefined field '\(set.field)' of global '\(name)'")
                    }
                } else if !options.defines(global: name, in: environment), !implicit.contains(name) {
                    add(112, set.line, set.column, name: name, "mutating non-standard global variable '\(name)'")
                }
            }
            for field in lint.unknownFieldReads where !field.isGuarded {
                if options.globals.contains(field.global)
                    || options.readGlobals.contains(field.global + "." + field.field)
                {
                    continue
                }
                add(
                    143, field.line, field.column, name: field.global,
                    "accessing undefined field '\(field.field)' of global '\(field.global)'")
            }
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
    /// the options leave it out (line limits, unused arguments and secondaries, self).
    static func describe(_ finding: LintFinding, options: LintOptions) -> (String, String)? {
        let name = finding.name
        switch finding.warning.rawValue {
        case 211:
            if finding.detail == "secondary", !options.unusedSecondaries { return nil }
            let what = finding.detail == "secondary" ? "variable" : finding.detail
            return ("unused \(what) '\(name)'", name)
        case 212:
            if finding.detail == "vararg" { return ("unused variable length argument", "...") }
            if name == "self", !options.unusedSelf { return nil }
            return ("unused argument '\(name)'", name)
        case 213: return ("unused loop variable '\(name)'", name)
        case 221: return ("variable '\(name)' is never set", name)
        case 231: return ("variable '\(name)' is never accessed", name)
        case 232:
            return ("argument '\(name)' is never accessed", name)
        case 233: return ("loop variable '\(name)' is never accessed", name)
        case 241: return ("variable '\(name)' is mutated but never accessed", name)
        case 314: return ("value assigned to field '\(name)' is overwritten on line \(finding.detail) before use", name)
        case 411: return ("variable '\(name)' was previously defined on line \(finding.detail)", name)
        case 412: return ("variable '\(name)' was previously defined as an argument on line \(finding.detail)", name)
        case 413:
            return ("variable '\(name)' was previously defined as a loop variable on line \(finding.detail)", name)
        case 421: return ("shadowing definition of variable '\(name)' on line \(finding.detail)", name)
        case 422: return ("shadowing definition of argument '\(name)' on line \(finding.detail)", name)
        case 423: return ("shadowing definition of loop variable '\(name)' on line \(finding.detail)", name)
        case 431: return ("shadowing upvalue '\(name)' on line \(finding.detail)", name)
        case 432: return ("shadowing upvalue argument '\(name)' on line \(finding.detail)", name)
        case 433: return ("shadowing upvalue loop variable '\(name)' on line \(finding.detail)", name)
        case 511: return ("unreachable code", "")
        case 512: return ("loop is executed at most once", "")
        case 521: return ("unused label '\(name)'", name)
        case 531: return ("right side of assignment has more values than left side expects", "")
        case 532: return ("right side of assignment has less values than left side expects", "")
        case 541: return ("empty do..end block", "")
        case 542: return ("empty if branch", "")
        case 571: return ("numeric for loop goes from #(expr) down to 1 but loop step is not negative", "")
        case 581:
            return (
                "'not (x \(name) y)' can be replaced by 'x \(finding.detail) y' (if neither side is a table or NaN)", ""
            )
        case 582: return ("error-prone negation: negation is executed before relational operator", "")
        case 611: return ("line contains only whitespace", "")
        case 612: return ("line contains trailing whitespace", "")
        case 613: return ("trailing whitespace in a string", "")
        case 614: return ("trailing whitespace in a comment", "")
        case 621: return ("inconsistent indentation (SPACE followed by TAB)", "")
        case 631:
            guard let length = Int(name), let limit = options.lineLimit(for: finding.detail), length > limit else {
                return nil
            }
            return ("line is too long (\(length) > \(limit))", "")
        default: return describeValueFlow(finding, options: options)
        }
    }
}
