import FlowAnalysis
import FlowDiagnostics
import FlowPackage
import FlowSupport

/// The project-wide step's findings kept between the reports of an editor's session, so that
/// an edit judges again only what it can change (issue 23: on 2,000 modules every edit ran the
/// project rules and the type check over every module, 0.35 s where 30 ms was the goal).
///
/// The project's configuration (`StaticAnalysisStep.Setting`: the environment, each file's
/// lint options, the definition files) is read once per reload of the session, and again when
/// `.luacheckrc` or `.luarc.json` changes. After an edit, the project rules judge the modules
/// `ProjectRules.filesToJudge` names (the edited ones and those depending on what changed),
/// reading what every module provides from all of them; the type check checks the edited
/// modules against the kept catalogue while no module's declarations changed, else every
/// module. Every other module's findings are kept: the result is the whole step's, finding for
/// finding (`IncrementalValidationTests`). The lint rules judge again the modules
/// `LintRules.ProjectTables.update` names against the kept tables (`KeptLint`), on their own
/// thread while the project rules run; FP405 reads the globals every module defines and sets
/// from kept `ProjectRules.GlobalTables`. Changed modules are found by their stamps in the
/// session's order, and the kept findings read out without looking any path up.
///
/// One check at a time: a check holds the cache's lock throughout.
final class ProjectCheckCache: @unchecked Sendable {
    // Unchecked: everything it holds is behind `state`'s lock.
    private let state = Locked<State?>(nil)

    /// What the last check judged again.
    var lastCheck: ValidationSession.ProjectCheck { state.withLock { $0?.counts ?? .init() } }

    /// The project-wide step's findings for `modules` as `StaticAnalysisStep.check` gives them;
    /// `stamps` say when each file was last analysed (`ValidationSession.modulesAnalysed`), and
    /// `reloads` how many times the session discovered the project.
    func check(
        project: Project, reloads: Int, modules: [ProjectRules.Module], stamps: AnalysisStamps,
        unanalysedSources: [[UInt8]], uncompiled: [ProjectRules.UncompiledModule]
    ) -> [Diagnostic] {
        state.withLock { kept in
            let generation = Generation(reloads: reloads, root: project.root.path)
            // Taken out, so that `current` holds its dictionaries alone and changes them in place.
            var current =
                kept.take() ?? State(generation: generation, setting: StaticAnalysisStep.Setting(project: project))
            if current.generation != generation {
                current = State(generation: generation, setting: StaticAnalysisStep.Setting(project: project))
            }
            let changed = current.changes(stamps)
            let changes = changed?.changes
            current.keep(modules, changed: changed, stamps: stamps)
            // Its own box, taken out of `current`: the lint rules may run on a thread of their own.
            let lint = Locked(current.lint.take())
            let setting = current.setting
            let analysed = current.modules
            let found = StaticAnalysisStep.combined(
                setting, modules: modules,
                lint: {
                    lint.withLock {
                        KeptLint.check(&$0, modules: modules, changed: changed, analysed: analysed, setting: setting)
                    }
                },
                projectRules: {
                    current.projectRules(
                        modules, changes: changes, unanalysedSources: unanalysedSources, uncompiled: uncompiled)
                },
                types: { current.types(modules, changes: changes) })
            current.lint = lint.withLock { $0.take() }
            current.counts.linted = current.lint?.judged ?? 0
            kept = current
            return found
        }
    }

    /// What the setting was read for: a reload of the session, and the configuration files as
    /// they were (a change to one reads the setting again).
    struct Generation: Equatable {
        var reloads: Int
        var configurations: [FileStamp?]

        init(reloads: Int, root: String) {
            self.reloads = reloads
            configurations = [".luacheckrc", LuaLSConfiguration.fileName].map { FileStamp(path: root + "/" + $0) }
        }
    }

    /// Everything kept of the last check.
    struct State {
        let generation: Generation
        let setting: StaticAnalysisStep.Setting
        let projectModules: Set<String>
        /// When each file was last analysed (in the session's order), and each analysed module (its
        /// facts, by file), at the last check.
        var stamps: [Int] = []
        var files: [String] = []
        var modules: [String: ProjectRules.Module] = [:]
        /// The files whose lint options allow defining globals (luacheck's `allow_defined`,
        /// `allow_defined_top`): only their modules' sets define globals implicitly.
        var allowingDefined: Set<String>?
        /// The project rules' per-module findings, by file.
        var projectFindings: [String: [Diagnostic]] = [:]
        var loadedAtStart: Set<String>?
        var unanalysedSources: [[UInt8]] = []
        var types: KeptTypes?
        var lint: KeptLint?
        /// The globals every module defines and sets, as FP405 reads them.
        var globals: ProjectRules.GlobalTables?
        /// The require cycles (FP403, FP407) the last check found.
        var cycles: [Diagnostic]?
        var counts = ValidationSession.ProjectCheck()
        var isChecked = false

        init(generation: Generation, setting: StaticAnalysisStep.Setting) {
            self.generation = generation
            self.setting = setting
            projectModules = setting.projectModules
        }

        /// The analysed modules whose facts changed since the last check (analysed again, or
        /// analysed no more), and the changed ones still analysed; nil before the first. Found by
        /// the files' stamps in the session's order, which a generation keeps: no path is looked
        /// up but the changed ones' (looking every module's stamp up by its path twice was 14% of
        /// an lsp edit on 2,000 modules). A module's facts are read only when it changed: each
        /// read copies them.
        func changes(_ stamps: AnalysisStamps) -> Changed? {
            guard isChecked, stamps.stamps.count == self.stamps.count else { return nil }
            var changed = Changed()
            for index in stamps.stamps.indices where stamps.stamps[index] != self.stamps[index] {
                let file = stamps.files[index]
                let before = self.modules[file]
                let after = stamps.modules[index]
                guard before != nil || after != nil else { continue }
                changed.changes.append(ProjectRules.Change(file: file, before: before?.facts, after: after?.facts))
                changed.files.insert(file)
                if let after { changed.analysed.append(after) }
            }
            return changed
        }

        /// Keeps `modules` as the last check saw them.
        mutating func keep(_ modules: [ProjectRules.Module], changed: Changed?, stamps: AnalysisStamps) {
            self.stamps = stamps.stamps
            files = stamps.files
            if let changed {
                for file in changed.files { self.modules[file] = nil }
                for module in changed.analysed { self.modules[module.file] = module }
            } else {
                self.modules = [:]
                for module in modules { self.modules[module.file] = module }
            }
        }

        /// The globals luacheck's `allow_defined` options define (`LintRules.implicitlyDefinedGlobals`),
        /// from the modules of the files whose options allow it: usually none.
        mutating func implicitlyDefinedGlobals(_ modules: [ProjectRules.Module], files: [String]) -> Set<String> {
            let options = setting.options
            let allowing =
                allowingDefined
                ?? Set(files.filter { options($0).allowDefined || options($0).allowDefinedTop })
            allowingDefined = allowing
            guard !allowing.isEmpty else { return [] }
            return LintRules.implicitlyDefinedGlobals(
                modules: modules.filter { allowing.contains($0.file) }, options: options)
        }

        /// The project rules' findings: per-module ones made again for the files `changes` can
        /// change (all of them before the first check), the others kept; project-wide ones made again.
        mutating func projectRules(
            _ modules: [ProjectRules.Module], changes: [ProjectRules.Change]?, unanalysedSources: [[UInt8]],
            uncompiled: [ProjectRules.UncompiledModule]
        ) -> [Diagnostic] {
            let loaded = setting.loadedAtStart(modules, projectModules: projectModules)
            let judging = changes.map { changes in
                ProjectRules.filesToJudge(
                    after: changes, modules: modules,
                    surroundings: ProjectRules.Surroundings(
                        loadedBefore: loadedAtStart, loadedAfter: loaded, unanalysedBefore: self.unanalysedSources,
                        unanalysedAfter: unanalysedSources, withUndefinedGlobals: files(with: [.undefinedGlobal]),
                        withUnknownRequires: files(with: [.unknownRequire, .unknownRequireWhenRun])))
            }
            if let changes, var kept = globals.take() {
                kept.update(changes)
                globals = kept
            } else {
                globals = ProjectRules.GlobalTables(modules: modules)
            }
            // The require cycles stand while no module's requires changed (nor came or went).
            let sameRequires =
                changes?.allSatisfy { $0.before != nil && $0.after != nil && $0.before?.requires == $0.after?.requires }
                ?? false
            let found = setting.projectRules(
                modules, projectModules: projectModules, loadedAtStart: loaded, unanalysedSources: unanalysedSources,
                uncompiled: uncompiled, implicitlyDefinedGlobals: implicitlyDefinedGlobals(modules, files: files),
                judging: judging, globals: globals, cycles: sameRequires && loaded == loadedAtStart ? cycles : nil)
            cycles = found.cycles
            if let judging {
                for file in judging { projectFindings[file] = nil }
            } else {
                projectFindings = [:]
            }
            for diagnostic in found.byModule { projectFindings[diagnostic.file ?? "", default: []].append(diagnostic) }
            loadedAtStart = loaded
            self.unanalysedSources = unanalysedSources
            isChecked = true
            counts.modules = modules.count
            counts.judged = judging.map { $0.count } ?? modules.count
            var all = found.projectWide
            // Sorted just after: read as the dictionary holds them, no path looked up.
            for findings in projectFindings.values { all += findings }
            return all.sorted(by: ProjectRules.order)
        }

        /// The files with a per-module finding of one of `codes`.
        private func files(with codes: Set<DiagnosticCode>) -> Set<String> {
            Set(projectFindings.filter { $0.value.contains { codes.contains($0.code) } }.keys)
        }
    }
}
