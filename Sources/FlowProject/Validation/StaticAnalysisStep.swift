import Dispatch
import FlowAnalysis
import FlowDiagnostics
import FlowPackage
import FlowSupport

/// The static-analysis step of validation (FP4xx): `ModuleAnalyzer` reads each module that
/// compiled, then `ProjectRules` checks the project's requires, resources and globals once.
enum StaticAnalysisStep {
    /// Project-wide rules (requires, resources, globals) over the facts of every module that
    /// could be analysed, in the project's module order; with them, the syntax errors of
    /// `uncompiled` modules (FP301, an error in every module since issue 34).
    static func check(
        project: Project, modules: [ProjectRules.Module], unanalysedSources: [[UInt8]] = [],
        uncompiled: [ProjectRules.UncompiledModule] = []
    ) -> [Diagnostic] {
        let setting = Setting(project: project)
        return combined(
            setting, modules: modules,
            lint: {
                LintRules.check(
                    modules: modules, environment: setting.environment, readOnlyGlobals: setting.readOnlyGlobals,
                    options: setting.options)
            },
            projectRules: {
                let projectModules = setting.projectModules
                let found = setting.projectRules(
                    modules, projectModules: projectModules,
                    loadedAtStart: setting.loadedAtStart(modules, projectModules: projectModules),
                    unanalysedSources: unanalysedSources, uncompiled: uncompiled)
                return (found.byModule + found.projectWide).sorted(by: ProjectRules.order)
            },
            types: {
                TypeCheckStep.check(
                    project: project, modules: modules, definitions: setting.definitions,
                    disabled: setting.luarc.disabled)
            })
    }

    /// The lint rules' findings over `modules` (`lint`), with the project rules' and the types',
    /// as validate reports them: `.luacheckrc`'s and `.luarc.json`'s own findings first,
    /// `include_files` and `exclude_files` heeded, `undefined-global` disabled as `.luarc.json` says.
    static func combined(
        _ setting: Setting, modules: [ProjectRules.Module], lint lintCheck: @escaping @Sendable () -> [Diagnostic],
        projectRules: () -> [Diagnostic], types: () -> [Diagnostic]
    ) -> [Diagnostic] {
        // The lint rules and the project rules read the same facts and nothing of each other:
        // on a large project the lint rules run on a thread of their own meanwhile, since this
        // step is the serial tail of validation (Benchmarks/README.md, lint speed).
        let lintFindings = Locked<[Diagnostic]>([])
        let lintDone = DispatchGroup()
        if modules.count >= Validator.largeProject {
            lintDone.enter()
            DetachedThread.start(name: "flowpkg-lint", stackSize: 16 << 20) {
                let found = lintCheck()
                lintFindings.withLock { $0 = found }
                lintDone.leave()
            }
        } else {
            let found = lintCheck()
            lintFindings.withLock { $0 = found }
        }
        let projectFindings = projectRules()
        let typeFindings = types()
        lintDone.wait()
        // `diagnostics.disable: ["undefined-global"]` as luacheck's `ignore 113` would.
        let undefinedGlobalsOff = setting.luarc.disabled.contains("undefined-global")
        let projectKept = projectFindings.filter { !(undefinedGlobalsOff && $0.has(.undefinedGlobal)) }
        // `include_files` and `exclude_files` leave files out of luacheck's classes, as luacheck does.
        let lint = setting.lint
        let linted = (lintFindings.withLock { $0 } + projectKept).filter { diagnostic in
            guard !lint.includeFiles.isEmpty || !lint.excludeFiles.isEmpty, let file = diagnostic.file,
                diagnostic.code == .undefinedGlobal || luacheckCodes.contains(diagnostic.code)
            else { return true }
            return lint.lints(file: file)
        }
        return lint.diagnostics + setting.luarc.diagnostics + linted + typeFindings
    }

    /// The codes of luacheck's warning classes.
    static let luacheckCodes = Set(DiagnosticCodes.byLuacheckNumber.values)

    /// Splits one checked file's findings: its syntax error, when it has one and a name the
    /// analysis knows it by, goes to `uncompiled` (graded with the project-wide rules); the
    /// rest are returned as they are.
    static func separateSyntaxError(
        _ diagnostics: [Diagnostic], of name: ModuleName?, into uncompiled: inout [ProjectRules.UncompiledModule]
    ) -> [Diagnostic] {
        guard let name else { return diagnostics }
        var kept: [Diagnostic] = []
        for diagnostic in diagnostics {
            if diagnostic.has(.luaSyntaxError) {
                uncompiled.append(ProjectRules.UncompiledModule(name: name, diagnostic: diagnostic))
            } else {
                kept.append(diagnostic)
            }
        }
        return kept
    }

    /// Each file's lint options, made once per set of sections files match and found once per file.
    static func optionsLookup(_ lint: LintConfiguration, top: LintOptions) -> @Sendable (String) -> LintOptions {
        // Options are made once per set of sections a file matches (with 500,000 globals each
        // making took a second, issue 43); a file that matches none has the top's.
        // And a file's key is found once: the rules ask for a module's options several times,
        // and matching its path against every section's glob was 42% of an lsp edit's time on
        // 2,000 modules (perf, Benchmarks/README.md, lsp).
        let madeOptions = Locked<[LintConfiguration.OptionsKey: LintOptions]>([lint.topKey: top])
        let optionsOfFile = Locked<[String: LintOptions]>([:])
        return { path in
            if let made = optionsOfFile.withLock({ $0[path] }) { return made }
            let key = lint.optionsKey(forFile: path)
            let made: LintOptions
            if let known = madeOptions.withLock({ $0[key] }) {
                made = known
            } else {
                made = lint.options(forFile: path)
                madeOptions.withLock { $0[key] = made }
            }
            optionsOfFile.withLock { $0[path] = made }
            return made
        }
    }
}
