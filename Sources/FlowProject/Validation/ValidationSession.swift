import FlowAnalysis
import FlowDiagnostics
import FlowPackage
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A project validated once, then again one module at a time as an editor changes it: what
/// `flowpkg lsp` keeps between edits.
///
/// `flowpkg validate` is one session run once (`Validator.validate`, `report()`), so an editor,
/// `export`, `serve` and the session page show exactly what `flowpkg validate` prints. A module's text
/// may come from an unsaved buffer instead of its file. A change re-checks and re-analyses that
/// module only (no other module is read or parsed again); the project-wide step then judges
/// again only what the change can alter, the modules that depend on it (those requiring it,
/// reading its globals, or in a cycle with it) included, and keeps every other module's
/// findings (`ProjectCheckCache`, issue 23). Not thread-safe: one caller at a time.
public final class ValidationSession {
    /// The project folder, as given.
    public let root: URL
    /// The project, when its model could be built; nil while flowpkg.json is unusable.
    public private(set) var project: Project?
    /// How many times a module was checked and analysed since the session began: a measure of
    /// how incremental an update was.
    public private(set) var modulesAnalysed = 0
    /// How many times the project was discovered again (`reload()`), the first time included.
    public private(set) var reloads = 0

    private let options: ValidationOptions
    private var discoveryDiagnostics: [Diagnostic] = []
    private var modules: [ProjectModule] = []
    /// What is checked and analysed: the modules, then the scripts, as validate orders them.
    private var units: [Unit] = []
    private var indexByPath: [String: Int] = [:]
    private var outcomes: [ModuleContentChecker.Outcome?] = []
    /// Each unit's facts as the project-wide step reads them (nil: not analysed, or no name),
    /// boxed once per analysis rather than once per report.
    private var analysedModules: [ProjectRules.Module?] = []
    /// `modulesAnalysed` when each unit was last analysed, so a cache knows which changed.
    private var analysisStamps: [Int] = []
    /// Each file's suppression comments as read when it was checked, by path; none for a file
    /// checked since (its comments are read again when a finding needs them).
    private var comments: [String: Suppressions.Comments] = [:]
    private var buffers: [String: [UInt8]] = [:]
    /// The bytes checked of each file, by path, when `options.keepsCheckedBytes`.
    private var checkedBytes: [String: [UInt8]] = [:]
    private var resourceCount = 0
    /// The project-wide step's findings kept between reports; nil for a session reported once.
    private let projectCheck: ProjectCheckCache?
    private lazy var checker = ModuleContentChecker(
        maximumSize: options.maximumModuleSize, checksTypes: options.checksTypes)

    /// Validates the project in `directory` (every module on worker threads, as validate does).
    public convenience init(projectAt directory: URL, options: ValidationOptions = ValidationOptions()) {
        self.init(root: directory.standardizedFileURL, options: options)
    }

    /// `root` as given: `Validator.validate` names files under the folder as the user wrote it,
    /// and reports once, keeping nothing of the project-wide step (`keepsProjectFindings`).
    init(root: URL, options: ValidationOptions, keepsProjectFindings: Bool = true) {
        self.root = root
        self.options = options
        projectCheck = keepsProjectFindings ? ProjectCheckCache() : nil
        reload()
    }

    /// How much the last report's project-wide step judged again: the measure of how
    /// incremental it was after an edit.
    public struct ProjectCheck: Sendable, Equatable {
        /// The modules the project rules (FP401-FP408) judged again, and how many there were.
        public var judged = 0
        public var modules = 0
        /// The modules the type check checked again.
        public var typeChecked = 0
        /// The modules the lint rules judged again.
        public var linted = 0
    }

    /// What the project-wide step of the last report (or snapshot's report) judged again.
    public var lastProjectCheck: ProjectCheck { projectCheck?.lastCheck ?? ProjectCheck() }

    /// Everything found, sorted, as `flowpkg validate` reports it: `ValidationOptions.strict`
    /// makes every warning an error.
    public func report() -> ValidationReport {
        // Already in order: the report's own sort then only walks it once (Benchmarks/README.md,
        // lint speed: sorting 17,000 findings three times was a tenth of validate's time on nmap).
        var diagnostics = sortedDiagnostics()
        if options.strict {
            // The types' findings stay warnings (issue 47): a team adopts them gradually.
            let typeCodes = Set(TypeCheckStep.codes)
            for index in diagnostics.indices
            where diagnostics[index].severity == .warning && !typeCodes.contains(diagnostics[index].code) {
                diagnostics[index].severity = .error
            }
        }
        return ValidationReport(
            project: project, diagnostics: diagnostics, moduleCount: modules.count, resourceCount: resourceCount)
    }

    /// Discovers the project again (flowpkg.json, the module and resource files) and checks every
    /// module: after flowpkg.json changed or files came or went. Unsaved buffers are kept.
    public func reload() {
        let discovery = ProjectLoader.discover(
            in: root, identifierOverride: options.identifier, versionOverride: options.version,
            allowsOutsideLinks: options.allowsOutsideLinks, dependencyOptions: options.dependencies)
        project = discovery.project
        discoveryDiagnostics = discovery.diagnostics
        modules = discovery.modules
        units =
            zip(discovery.modules, discovery.modulePaths).map {
                Unit(name: $0.name, path: $1, chunkName: $0.relativePath)
            }
            + discovery.scripts.map { Unit(name: $0.analysisName, path: $0.file.path, chunkName: $0.relativePath) }
        resourceCount = discovery.resources.count
        indexByPath = [:]
        for (index, unit) in units.enumerated() { indexByPath[unit.path] = index }

        let queue = ModuleCheckQueue(maximumSize: options.maximumModuleSize, checksTypes: options.checksTypes)
        let onDisk = units.indices.filter { buffers[units[$0].path] == nil }
        queue.add(
            onDisk.map {
                ModuleCheckQueue.File(
                    path: units[$0].path, chunkName: units[$0].chunkName, collectsStringLiterals: resourceCount > 0)
            })
        queue.finish()
        // No more threads than files: a project of one file, or none, starts no idle thread.
        let workers = min(max(1, options.concurrency ?? ProcessInfo.processInfo.activeProcessorCount), onDisk.count)
        if workers > 0 { Validator.startWorkers(workers, on: queue).wait() }
        let checked = queue.outcomes()
        let checkedComments = queue.comments()
        outcomes = [ModuleContentChecker.Outcome?](repeating: nil, count: units.count)
        checkedBytes = [:]
        comments = [:]
        for (position, index) in onDisk.enumerated() {
            outcomes[index] = checked[position]
            comments[units[index].path] = checkedComments[position]
            // Kept apart (or dropped), so an editor's session holds no copy of every file.
            if options.keepsCheckedBytes, let bytes = checked[position]?.checkedBytes {
                checkedBytes[units[index].path] = bytes
            }
            outcomes[index]?.checkedBytes = nil
        }
        analysedModules = units.indices.map(analysedModule)
        modulesAnalysed += onDisk.count
        reloads += 1
        analysisStamps = [Int](repeating: modulesAnalysed, count: units.count)
        for index in units.indices where outcomes[index] == nil {
            analyse(index)
        }
    }

    /// The module whose file is `path` (absolute, as the project's paths are), if it is one.
    public func module(atPath path: String) -> ProjectModule? {
        indexByPath[path].flatMap { $0 < modules.count ? modules[$0] : nil }
    }

    /// Whether the file at `path` is checked and analysed: a module or a script of the project.
    public func analyses(path: String) -> Bool {
        indexByPath[path] != nil
    }

    /// The path of each module's file, in module order.
    public var moduleFiles: [(module: ProjectModule, path: String)] {
        Array(zip(modules, units.lazy.map(\.path)))
    }

    /// The files checked and analysed: every module's, then every script's.
    public var analysedFiles: [String] { units.map(\.path) }

    /// Sets the text of the file at `path` to an editor's buffer (nil: the file's own content
    /// again) and re-analyses that module or script alone. Returns false, and keeps nothing,
    /// when `path` is neither.
    @discardableResult
    public func setBuffer(_ text: [UInt8]?, forPath path: String) -> Bool {
        guard let index = indexByPath[path] else { return false }
        buffers[path] = text
        analyse(index)
        return true
    }

    /// The files analysed again after `modulesAnalysed` was `stamp`, in the project's order: what
    /// a cache kept since then must read again (every file after a `reload()`).
    public func filesAnalysed(since stamp: Int) -> [String] {
        units.indices.filter { analysisStamps[$0] > stamp }.map { units[$0].path }
    }

    /// What static analysis knows of the module at `path`: from its last text that parsed.
    public func facts(ofModuleAt path: String) -> ModuleFacts? {
        indexByPath[path].flatMap { outcomes[$0]?.facts }
    }

    /// The bytes of the module or script file at `path` as validation read and checked them,
    /// when the options keep them and no buffer replaced them since.
    func checkedBytes(ofFileAt path: String) -> [UInt8]? {
        buffers[path] == nil ? checkedBytes[path] : nil
    }

    /// The text the session validates for `path`: the buffer, else the file.
    public func text(ofFileAt path: String) -> [UInt8]? {
        buffers[path] ?? FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    /// Everything validate would report for the project as it is now (buffers included), by
    /// file; a finding about no file in particular is filed under flowpkg.json.
    public func diagnosticsByFile() -> [String: [Diagnostic]] {
        snapshot().diagnosticsByFile()
    }

    /// The session as it is now, for its report to be computed on another thread.
    public func snapshot() -> ValidationSnapshot {
        ValidationSnapshot(
            root: root, project: project, discoveryDiagnostics: discoveryDiagnostics, modules: modules, units: units,
            outcomes: outcomes, analysedModules: analysedModules, buffers: buffers, comments: comments,
            stamps: analysisStamps, reloads: reloads, projectCheck: projectCheck)
    }

    /// Everything validate would report for the project as it is now, in report order.
    private func sortedDiagnostics() -> [Diagnostic] {
        snapshot().sortedDiagnostics()
    }

    /// Checks and analyses one module or script from its buffer or its file.
    private func analyse(_ index: Int) {
        let path = units[index].path
        let chunkName = units[index].chunkName
        modulesAnalysed += 1
        analysisStamps[index] = modulesAnalysed
        comments[path] = nil
        // Only FP406 reads a module's string literals, and only about resources.
        let literals = resourceCount > 0
        if let buffer = buffers[path] {
            outcomes[index] = checker.check(
                bytes: buffer, path: path, chunkName: chunkName, collectsStringLiterals: literals)
        } else {
            outcomes[index] = checker.check(path: path, chunkName: chunkName, collectsStringLiterals: literals)
            outcomes[index]?.checkedBytes = nil
        }
        analysedModules[index] = analysedModule(index)
    }

    /// The unit's facts, boxed for the project-wide step, when it was analysed and has a name.
    private func analysedModule(_ index: Int) -> ProjectRules.Module? {
        guard let name = units[index].name, let facts = outcomes[index]?.facts else { return nil }
        return ProjectRules.Module(name: name, file: units[index].path, facts: facts)
    }

    /// A module or a script: what is checked, and the name the analysis knows it by.
    struct Unit {
        var name: ModuleName?
        var path: String
        var chunkName: String
    }
}
