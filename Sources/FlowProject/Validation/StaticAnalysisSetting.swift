import FlowAnalysis
import FlowDiagnostics
import FlowPackage
import FlowSupport

extension StaticAnalysisStep {
    /// What the project's configuration gives static analysis: the environment with every
    /// global flowpkg.json, `.luarc.json`, definition files and `.luacheckrc` declare, each
    /// file's lint options, the resources. Read once per check by validate, and once per
    /// generation of an editor's session (`ProjectCheckCache`), whose edits then find each
    /// file's options already made.
    struct Setting: @unchecked Sendable {
        // Unchecked: values only, and a lookup behind its own locks (`optionsLookup`).
        let project: Project
        let luarc: LuaLSConfiguration
        /// The project's definition files, read for their types.
        let definitions: [(path: String, types: ModuleTypes)]
        let lint: LintConfiguration
        let environment: Environment
        let readOnlyGlobals: Set<String>
        let resources: [ResourceKey: String]
        let options: @Sendable (String) -> LintOptions

        init(project: Project) {
            self.project = project
            // An unknown environment is already reported (FP107); check against plain Lua then.
            let base = Environment.named(project.projectFile.environment) ?? .lua
            // A LuaLS user's configuration carries over too (issue 47).
            luarc = LuaLSConfiguration.load(inProject: project.root)
            let legacy = luarc.hasLegacyGlobals ? Array(Environment.legacyGlobals.keys) : []
            // What the project's definition files declare is defined, as LuaLS has it.
            definitions = TypeCheckStep.definitionFiles(of: project, luarc: luarc)
            let declared = definitions.flatMap { Array($0.types.globals.keys) + Array($0.types.globalFields.keys) }
            // A luacheck user's configuration carries over: what .luacheckrc declares is defined,
            // its top level's for every file, a `files[...]` section's for its files. Spec files read
            // busted's globals (describe, it, assert, ...), as `std = "+busted"` gives them.
            lint = LintConfiguration.load(
                inProject: project.root, allowsOutsideLinks: project.allowsOutsideLinks,
                specFile: { [projectFile = project.projectFile] in projectFile.isSpecFile($0) })
            let top = lint.topOptions
            let luacheckGlobals =
                top.globals.count >= top.readGlobals.count
                ? top.globals.union(top.readGlobals) : top.readGlobals.union(top.globals)
            environment = base.extended(
                globals: project.projectFile.globals + luarc.globals + legacy + declared, many: luacheckGlobals,
                externalModules: project.projectFile.externalModules)
            var resources: [ResourceKey: String] = [:]
            for resource in project.resources { resources[resource.key] = resource.file.path }
            self.resources = resources
            readOnlyGlobals = base.globals
            options = StaticAnalysisStep.optionsLookup(lint, top: top)
        }

        /// The names of the project's modules, as a require names them.
        var projectModules: Set<String> {
            Set(project.requireNames.compactMap { try? ModuleName($0) }.map(\.rawValue))
        }

        /// The project's scripts, by path.
        var scripts: Set<String> { Set(project.scripts.map(\.relativePath)) }

        /// The modules loaded when the program starts (nil: graded as a library).
        func loadedAtStart(_ modules: [ProjectRules.Module], projectModules: Set<String>) -> Set<String>? {
            ProjectRules.loadedAtStart(
                startModule: project.startModule, scripts: scripts, modules: modules, projectModules: projectModules)
        }

        /// The project-wide rules over `modules`, per-module findings for the files in `judging` only (all when nil).
        func projectRules(
            _ modules: [ProjectRules.Module], projectModules: Set<String>, loadedAtStart: Set<String>?,
            unanalysedSources: [[UInt8]], uncompiled: [ProjectRules.UncompiledModule],
            implicitlyDefinedGlobals: Set<String>? = nil, judging: Set<String>? = nil,
            globals: ProjectRules.GlobalTables? = nil, cycles: [Diagnostic]? = nil
        ) -> ProjectRules.Findings {
            ProjectRules.findings(
                modules: modules, projectModules: projectModules, resources: resources, environment: environment,
                unanalysedSources: unanalysedSources, everyGlobalRead: true, scripts: scripts,
                loadedAtStart: loadedAtStart, uncompiled: uncompiled,
                implicitlyDefinedGlobals: implicitlyDefinedGlobals
                    ?? LintRules.implicitlyDefinedGlobals(modules: modules, options: options),
                options: options, judging: judging, globals: globals, cycles: cycles)
        }
    }
}
