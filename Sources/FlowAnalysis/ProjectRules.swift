import FlowDiagnostics
import FlowPackage

/// The project-wide static-analysis rules (FP401–FP408), checked once with the facts of
/// every module: requires that nothing provides, require cycles, `getResource` calls
/// that name no resource, reads of undefined globals and resources nothing names.
///
/// Each rule is a file of its own: ProjectRules+Requires.swift (FP401, FP402),
/// +SyntaxErrors (FP301), +UnknownResources (FP404, FP408), +UndefinedGlobals (FP405) and
/// +UnnamedResources (FP406); require cycles are RequireCycles.swift.
public enum ProjectRules {
    /// One analysed module: its name, the path to show in diagnostics, and its facts.
    ///
    /// Held in one shared box: the project-wide rules walk every module a dozen times, and a
    /// copy of a plain struct would retain and release each of its facts' arrays every time
    /// (7% of validate's CPU on the benchmark tree: Benchmarks/README.md, lint speed).
    public struct Module: Sendable {
        private final class Storage: Sendable {
            let name: ModuleName
            let file: String
            let facts: ModuleFacts

            init(name: ModuleName, file: String, facts: ModuleFacts) {
                self.name = name
                self.file = file
                self.facts = facts
            }
        }

        private var storage: Storage

        public var name: ModuleName {
            get { storage.name }
            set { storage = Storage(name: newValue, file: storage.file, facts: storage.facts) }
        }
        public var file: String {
            get { storage.file }
            set { storage = Storage(name: storage.name, file: newValue, facts: storage.facts) }
        }
        public var facts: ModuleFacts {
            get { storage.facts }
            set { storage = Storage(name: storage.name, file: storage.file, facts: newValue) }
        }

        public init(name: ModuleName, file: String, facts: ModuleFacts) {
            storage = Storage(name: name, file: file, facts: facts)
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

    /// What the rules found, apart: the findings each about one module's own code (FP401,
    /// FP402, FP404, FP408, FP405, in that module's file), and those about the project as a
    /// whole (FP301's grading, FP403, FP407, FP406), which every check makes again.
    public struct Findings: Sendable {
        public var byModule: [Diagnostic] = []
        public var projectWide: [Diagnostic] = []
        /// Of `projectWide`, the require cycles (FP403, FP407): what a caller keeps while no
        /// module's requires change (`findings`' `cycles`).
        public var cycles: [Diagnostic] = []
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
    ///   - options: a file's lint options, whose globals (a `files[...]` std, `not_globals`) FP405 heeds.
    /// - Returns: diagnostics sorted by file, line, column and code.
    public static func check(
        modules: [Module], moduleNames: Set<ModuleName>,
        resources: [ResourceKey: String], environment: Environment,
        unanalysedSources: [[UInt8]] = [], everyGlobalRead: Bool = false, scripts: Set<String> = [],
        startModule: ModuleName? = nil, uncompiled: [UncompiledModule] = [],
        implicitlyDefinedGlobals: Set<String> = [], options: ((String) -> LintOptions)? = nil
    ) -> [Diagnostic] {
        let projectModules = Set(moduleNames.map(\.rawValue))
        let found = findings(
            modules: modules, projectModules: projectModules, resources: resources, environment: environment,
            unanalysedSources: unanalysedSources, everyGlobalRead: everyGlobalRead, scripts: scripts,
            loadedAtStart: loadedAtStart(
                startModule: startModule, scripts: scripts, modules: modules, projectModules: projectModules),
            uncompiled: uncompiled, implicitlyDefinedGlobals: implicitlyDefinedGlobals, options: options)
        return (found.byModule + found.projectWide).sorted(by: order)
    }

    /// `check`'s findings apart, the per-module ones only for the modules whose file is in
    /// `judging` (all when nil): what every module provides (globals it defines, modules it
    /// registers, requires) is still read from all `modules`, so a judged module's findings are
    /// those a whole check gives it. `loadedAtStart` is `loadedAtStart(startModule:...)`'s;
    /// `globals`, when given, the `GlobalTables` of `modules` (an editor's session keeps them);
    /// `cycles`, when given, the require cycles of a check whose modules required the same, with
    /// the same `loadedAtStart`.
    public static func findings(
        modules: [Module], projectModules: Set<String>, resources: [ResourceKey: String], environment: Environment,
        unanalysedSources: [[UInt8]] = [], everyGlobalRead: Bool = false, scripts: Set<String> = [],
        loadedAtStart: Set<String>?, uncompiled: [UncompiledModule] = [], implicitlyDefinedGlobals: Set<String> = [],
        options: ((String) -> LintOptions)? = nil, judging: Set<String>? = nil, globals: GlobalTables? = nil,
        cycles: [Diagnostic]? = nil
    ) -> Findings {
        var found = Findings()
        found.byModule += unknownRequires(
            modules, projectModules: projectModules, environment: environment, scripts: scripts,
            loadedAtStart: loadedAtStart, judging: judging)
        found.byModule += unknownResources(modules, resources: resources, judging: judging)
        found.byModule += undefinedGlobals(
            modules, environment: environment, unanalysedSources: unanalysedSources,
            everyRead: everyGlobalRead, implicitlyDefined: implicitlyDefinedGlobals, options: options,
            judging: judging, globals: globals)
        found.cycles =
            cycles ?? RequireCycles.find(modules, projectModules: projectModules, loadedAtStart: loadedAtStart)
        found.projectWide += found.cycles
        found.projectWide += uncompiled.map { syntaxError($0, loadedAtStart: loadedAtStart) }
        found.projectWide += unnamedResources(modules, resources: resources, unanalysedSources: unanalysedSources)
        return found
    }

    /// The modules loaded at start (`modulesLoadedAtStart` from the start module and the
    /// scripts), or nil without a start module the project has: a start module the project
    /// does not have (FP209) tells nothing of what loads at start, and the project is graded as
    /// a library, where any module may load first.
    public static func loadedAtStart(
        startModule: ModuleName?, scripts: Set<String>, modules: [Module], projectModules: Set<String>
    ) -> Set<String>? {
        startModule.flatMap { start in
            projectModules.contains(start.rawValue)
                ? modulesLoadedAtStart(
                    from: [start] + scripts.compactMap(scriptName), modules, projectModules: projectModules)
                : nil
        }
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

    /// The order `check` sorts its findings in: by file, line, column, code and message.
    public static func order(_ lhs: Diagnostic, _ rhs: Diagnostic) -> Bool {
        (lhs.file ?? "", lhs.line ?? 0, lhs.column ?? 0, lhs.code, lhs.message)
            < (rhs.file ?? "", rhs.line ?? 0, rhs.column ?? 0, rhs.code, rhs.message)
    }
}
