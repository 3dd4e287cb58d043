import FlowDiagnostics
import FlowPackage

// FP401, FP402: requires that nothing provides.
extension ProjectRules {
    /// - Parameters:
    ///   - scripts: the project's scripts, by path (`muc/password.lib.lua`): a require that
    ///     would reach one by a dotted name is a warning saying how to load it.
    ///   - loadedAtStart: with a start module, the modules loaded at start; an unknown top-level
    ///     require is an error (FP401) in every module, and its message says when it fails.
    ///     Inside a function, a condition or a pcall it is a warning (FP402).
    static func unknownRequires(
        _ modules: [Module], projectModules: Set<String>, environment: Environment, scripts: Set<String> = [],
        loadedAtStart: Set<String>? = nil, judging: Set<String>? = nil
    ) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var suggestions: Suggestions?  // made at the first require that needs a hint
        // Modules the program registers itself (`package.preload["x"] = f`, `package.loaded.x = v`),
        // and whether some module adds a searcher, after which any name may be found.
        var registered: Set<String> = []
        var searcher = false
        for module in modules {
            registered.formUnion(module.facts.registeredModules)
            searcher = searcher || module.facts.addsSearcher
        }
        // A script's path in require's words: `muc/password.lib.lua` is what `muc.password.lib` names.
        var scriptsByName: [String: String] = [:]
        for path in scripts where path.hasSuffix(".lua") {
            scriptsByName[String(path.dropLast(4)).replacingAll("/", with: ".")] = path
        }
        for module in modules where judging?.contains(module.file) ?? true {
            for require in module.facts.requires {
                let name = require.module
                if projectModules.contains(name) || environment.provides(module: name) || registered.contains(name) {
                    continue
                }
                if let script = scriptsByName[name] ?? scriptsByName[name.replacingAll("/", with: ".")] {
                    diagnostics.append(
                        Diagnostic(
                            severity: .warning, code: .unknownRequireWhenRun,
                            message:
                                "require '\(name)' does not reach the script '\(script)': require turns every dot into a folder",
                            file: module.file, line: require.location.line, column: require.location.column,
                            hint: "load the script by path: dofile(\"\(script)\") or loadfile(\"\(script)\")"))
                    continue
                }
                // `require "a/b"` finds a/b.lua, as stock Lua's searchers do.
                if name.utf8.contains(UInt8(ascii: "/")), let found = ModuleName.required(name),
                    projectModules.contains(found.rawValue) || environment.provides(module: found.rawValue)
                {
                    continue
                }
                var hint =
                    "looked in the project's modules, Lua's standard library and the '\(environment.name)' environment"
                if let close = Self.closest(to: name, in: &suggestions, projectModules) {
                    hint += "; did you mean '\(close)'?"
                } else {
                    hint += "; if the host provides it, add it to \"externalModules\" in flowpkg.json"
                }
                if searcher {
                    hint += "; a searcher the program adds (package.searchers) may find it"
                }
                // Certain (issue 34): a top-level, unconditional, unprotected require fails whenever
                // its module loads, whether or not a run reaches it at start, and export ships the
                // module all the same. Only a searcher of the program's own leaves it uncertain.
                let deferred = !require.runsAtLoad || searcher
                let place =
                    require.isProtected
                    ? "a protected require"
                    : require.isInsideFunction
                        ? "a require inside a function"
                        : require.isConditional
                            ? "a conditional require"
                            : "a top-level require"
                let notAtStart = loadedAtStart.map { !$0.contains(module.name.rawValue) } ?? false
                let when = notAtStart ? "whenever '\(module.name)' loads" : "when '\(module.name)' loads"
                diagnostics.append(
                    Diagnostic(
                        severity: deferred ? .warning : .error,
                        code: deferred ? .unknownRequireWhenRun : .unknownRequire,
                        message:
                            "module '\(name)' not found (\(place)\(deferred ? "" : ": it fails \(when)"))",
                        file: module.file, line: require.location.line, column: require.location.column, hint: hint))
            }
        }
        return diagnostics
    }

    /// The modules that load when the program starts: `roots` (the start module, and the
    /// scripts, which a host runs by path), and every project module they require through
    /// requires that run at load (top level, unconditional, unprotected), transitively. A
    /// module that did not compile is in the set when such a require reaches it (its own
    /// requires are unknown: loading it stops at its error).
    public static func modulesLoadedAtStart(
        from roots: [ModuleName], _ modules: [Module], projectModules: Set<String>
    ) -> Set<String> {
        var byName: [String: Module] = [:]
        for module in modules { byName[module.name.rawValue] = module }
        var loaded = Set(roots.map(\.rawValue))
        var pending = roots.map(\.rawValue)
        while let name = pending.popLast() {
            for require in byName[name]?.facts.requires ?? [] where require.runsAtLoad {
                let target =
                    projectModules.contains(require.module)
                    ? require.module : ModuleName.required(require.module)?.rawValue
                if let target, projectModules.contains(target) || byName[target] != nil,
                    loaded.insert(target).inserted
                {
                    pending.append(target)
                }
            }
        }
        return loaded
    }

    /// The name a script is analysed under (`muc.password.lib` for `muc/password.lib.lua`).
    static func scriptName(_ path: String) -> ModuleName? {
        guard path.hasSuffix(".lua") else { return nil }
        return try? ModuleName(String(path.dropLast(4)).replacing("/", with: "."))
    }
}
