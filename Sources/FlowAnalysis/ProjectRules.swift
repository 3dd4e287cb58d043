import FlowDiagnostics
import FlowPackage

/// The project-wide static-analysis rules (FP401–FP408), checked once with the facts of
/// every module: requires that nothing provides, require cycles, `getResource` calls
/// that name no resource, reads of undefined globals and resources nothing names.
public enum ProjectRules {
    /// One analysed module: its name, the path to show in diagnostics, and its facts.
    public struct Module: Sendable {
        public var name: ModuleName
        public var file: String
        public var facts: ModuleFacts

        public init(name: ModuleName, file: String, facts: ModuleFacts) {
            self.name = name
            self.file = file
            self.facts = facts
        }
    }

    /// A module Lua's compiler refused (FP301), with that finding: left out of the analysis,
    /// reported with it (an error in every module; its hint says when it does not load at start).
    public struct UncompiledModule: Sendable {
        public var name: ModuleName
        public var diagnostic: Diagnostic

        public init(name: ModuleName, diagnostic: Diagnostic) {
            self.name = name
            self.diagnostic = diagnostic
        }
    }

    /// Checks the rules across a project.
    /// - Parameters:
    ///   - modules: every module that could be analysed (a file that does not parse is left out).
    ///   - moduleNames: every module of the project, analysed or not.
    ///   - resources: every resource, with the path to show for it in diagnostics.
    ///   - environment: the project's environment, already extended with its `globals` and `externalModules`.
    ///   - unanalysedSources: the text of modules that did not compile: a global or resource
    ///     named anywhere in them is not reported as undefined (FP405) or unnamed (FP406).
    ///   - everyGlobalRead: FP405 for every read of an undefined global, not only a module's
    ///     first of each name (for a caller that drops some, then keeps the first of each).
    ///   - scripts: the project's scripts, by path; each is an entry point a host runs by path.
    ///   - startModule: with one, a require cycle is an error only where one of its modules loads
    ///     when the program starts (see `modulesLoadedAtStart`), elsewhere a warning (FP407).
    ///     What is certain is an error in every module, reached at start or not (issue 34): a
    ///     syntax error, and at a module's top level an unknown require or a missing resource;
    ///     what runs only inside a function, a condition or a pcall stays a warning.
    ///   - uncompiled: modules Lua's compiler refused, each with its FP301.
    ///   - implicitlyDefinedGlobals: globals set where luacheck's `allow_defined` or
    ///     `allow_defined_top` applies (`LintRules.implicitlyDefinedGlobals`): FP405 counts them defined.
    /// - Returns: diagnostics sorted by file, line, column and code.
    public static func check(
        modules: [Module], moduleNames: Set<ModuleName>,
        resources: [ResourceKey: String], environment: Environment,
        unanalysedSources: [[UInt8]] = [], everyGlobalRead: Bool = false, scripts: Set<String> = [],
        startModule: ModuleName? = nil, uncompiled: [UncompiledModule] = [],
        implicitlyDefinedGlobals: Set<String> = []
    ) -> [Diagnostic] {
        let projectModules = Set(moduleNames.map(\.rawValue))
        // A start module the project does not have (FP209) tells nothing of what loads at
        // start: graded as a library, where any module may load first.
        let loadedAtStart = startModule.flatMap { start in
            projectModules.contains(start.rawValue)
                ? modulesLoadedAtStart(
                    from: [start] + scripts.compactMap(scriptName), modules, projectModules: projectModules)
                : nil
        }
        var diagnostics: [Diagnostic] = []
        diagnostics += unknownRequires(
            modules, projectModules: projectModules, environment: environment, scripts: scripts,
            loadedAtStart: loadedAtStart)
        diagnostics += RequireCycles.find(modules, projectModules: projectModules, loadedAtStart: loadedAtStart)
        diagnostics += unknownResources(modules, resources: resources)
        diagnostics += uncompiled.map { syntaxError($0, loadedAtStart: loadedAtStart) }
        diagnostics += undefinedGlobals(
            modules, environment: environment, unanalysedSources: unanalysedSources,
            everyRead: everyGlobalRead, implicitlyDefined: implicitlyDefinedGlobals)
        diagnostics += unnamedResources(modules, resources: resources, unanalysedSources: unanalysedSources)
        return diagnostics.sorted(by: order)
    }

    /// The same check when resources are known only by key: each is shown by its file name.
    public static func check(
        modules: [Module], moduleNames: Set<ModuleName>,
        resources: Set<ResourceKey>, environment: Environment
    ) -> [Diagnostic] {
        check(
            modules: modules, moduleNames: moduleNames,
            resources: Dictionary(uniqueKeysWithValues: resources.map { ($0, $0.fileName) }), environment: environment)
    }

    static func order(_ lhs: Diagnostic, _ rhs: Diagnostic) -> Bool {
        (lhs.file ?? "", lhs.line ?? 0, lhs.column ?? 0, lhs.code, lhs.message)
            < (rhs.file ?? "", rhs.line ?? 0, rhs.column ?? 0, rhs.code, rhs.message)
    }

    // MARK: FP401, FP402

    /// - Parameters:
    ///   - scripts: the project's scripts, by path (`muc/password.lib.lua`): a require that
    ///     would reach one by a dotted name is a warning saying how to load it.
    ///   - loadedAtStart: with a start module, the modules loaded at start; an unknown top-level
    ///     require is an error (FP401) in every module, and its message says when it fails.
    ///     Inside a function, a condition or a pcall it is a warning (FP402).
    static func unknownRequires(
        _ modules: [Module], projectModules: Set<String>, environment: Environment, scripts: Set<String> = [],
        loadedAtStart: Set<String>? = nil
    ) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var suggestions = Suggestions(projectModules)
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
        for module in modules {
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
                if let close = suggestions.closest(to: name) {
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

    // MARK: FP301

    /// A module's syntax error: always an error (FP301), since issue 34. Export packages every
    /// module, and one that does not compile fails whenever it is first required, so where a
    /// run reaches it only changes when it fails; a module that does not load at start says so.
    static func syntaxError(_ module: UncompiledModule, loadedAtStart: Set<String>?) -> Diagnostic {
        guard let loadedAtStart, !loadedAtStart.contains(module.name.rawValue) else { return module.diagnostic }
        var diagnostic = module.diagnostic
        diagnostic.hint =
            (diagnostic.hint.map { $0 + "; " } ?? "")
            + "'\(module.name)' does not load at start, but export packages it and the require that first loads it fails"
        return diagnostic
    }

    // MARK: FP404

    /// An error (FP404) where the call surely runs when its module loads (at the top level,
    /// unconditionally), else a warning (FP408): `getResource` raises when that call runs.
    static func unknownResources(_ modules: [Module], resources: [ResourceKey: String]) -> [Diagnostic] {
        var suggestions = Suggestions(resources.keys.map(\.fileName))
        var typesByName: [String: Set<String>] = [:]
        for key in resources.keys { typesByName[key.name, default: []].insert(key.type) }
        var diagnostics: [Diagnostic] = []
        for module in modules {
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

    // MARK: FP405

    /// FP405, luacheck's 113: a read of a global that neither the environment, the project's
    /// globals nor a deliberate definition (`_G.x = v`, `rawset(_G, "x", v)`) defines. As in
    /// luacheck, a plain `x = v` declares nothing, and a free name is a global whatever `_ENV`
    /// holds; `implicitlyDefined` are the globals luacheck's `allow_defined` options define.
    static func undefinedGlobals(
        _ modules: [Module], environment: Environment, unanalysedSources: [[UInt8]] = [],
        everyRead: Bool = false, implicitlyDefined: Set<String> = []
    ) -> [Diagnostic] {
        var defined = environment.globals.union(implicitlyDefined)
        // Where a global is set without being declared: the message names the first such place.
        var setAt: [String: (file: String, line: Int)] = [:]
        for module in modules {
            defined.formUnion(module.facts.explicitGlobalWrites)
            for name in module.facts.globalWrites where setAt[name] == nil {
                setAt[name] = (module.file, module.facts.globalWriteLocations[name]?.line ?? 0)
            }
        }
        var diagnostics: [Diagnostic] = []
        var suggestions = Suggestions(defined.union(setAt.keys))
        var mentionedElsewhere: [String: Bool] = [:]
        for module in modules {
            var reported: Set<String> = []
            for read in module.facts.globalReads
            where !defined.contains(read.name) && !environment.defines(global: read.name) {
                // Tested before use (`table.unpack or unpack`, `if setfenv then`), a global of another
                // Lua version is portable code; any other name is a typo all the same (issue 34:
                // `local cfg = configuraton or {}`).
                let isPortable =
                    module.facts.guardedGlobals.contains(read.name) && Environment.legacyGlobals[read.name] != nil
                guard !isPortable, reported.insert(read.name).inserted || everyRead else { continue }
                if !unanalysedSources.isEmpty {
                    // A module that did not compile may define it: its error is the one to fix.
                    let mentioned =
                        mentionedElsewhere[read.name] ?? unanalysedSources.contains { Self.contains($0, read.name) }
                    mentionedElsewhere[read.name] = mentioned
                    if mentioned { continue }
                }
                let message: String
                let hint: String
                if let set = setAt[read.name] {
                    message = "'\(read.name)' is not defined: it is only set as a global, which declares nothing"
                    hint =
                        "set at \(set.file):\(set.line): declare it in \"globals\" in flowpkg.json, or define it with _G.\(read.name) = ..."
                } else {
                    message =
                        "'\(read.name)' is not defined: no module, the '\(environment.name)' environment nor the project's globals define it"
                    if let legacy = Environment.legacyGlobals[read.name] {
                        hint = legacy
                    } else if let close = suggestions.closest(to: read.name) {
                        hint = "did you mean '\(close)'?"
                    } else {
                        hint = "if the host defines it, add it to \"globals\" in flowpkg.json"
                    }
                }
                diagnostics.append(
                    Diagnostic(
                        severity: .warning, code: .undefinedGlobal, message: message, file: module.file,
                        line: read.location.line, column: read.location.column, hint: hint))
            }
        }
        return diagnostics
    }

    // MARK: FP406

    /// Whether `text` holds `word`'s bytes anywhere (a plain search: only modules with errors are searched).
    static func contains(_ text: [UInt8], _ word: String) -> Bool {
        let needle = Array(word.utf8)
        guard let first = needle.first, needle.count <= text.count else { return needle.isEmpty }
        var index = 0
        let last = text.count - needle.count
        while index <= last {
            if text[index] == first, text[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }

    static func unnamedResources(
        _ modules: [Module], resources: [ResourceKey: String],
        unanalysedSources: [[UInt8]] = []
    ) -> [Diagnostic] {
        guard !resources.isEmpty else { return [] }
        // Look up only the names resources could be named by, from whichever side is smaller:
        // a union of every module's literals would hash every string of the project once more.
        var wanted: Set<String> = []
        for key in resources.keys {
            wanted.insert(key.name)
            wanted.insert(key.fileName)
        }
        var named: Set<String> = []
        for module in modules {
            let literals = module.facts.stringLiterals
            if literals.count < wanted.count {
                for literal in literals where wanted.contains(literal) { named.insert(literal) }
            } else {
                for name in wanted where literals.contains(name) { named.insert(name) }
            }
        }
        var diagnostics: [Diagnostic] = []
        for (key, file) in resources where !named.contains(key.name) && !named.contains(key.fileName) {
            // A module that did not compile may name it; its error is reported, not this.
            if unanalysedSources.contains(where: { Self.contains($0, key.name) }) { continue }
            diagnostics.append(
                Diagnostic(
                    severity: .warning, code: .unnamedResource,
                    message: "resource '\(key.fileName)' is not named by any module",
                    file: file,
                    hint:
                        "no string literal is '\(key.name)' or '\(key.fileName)'; fine if a module computes the name, otherwise remove the file"
                ))
        }
        return diagnostics
    }
}
