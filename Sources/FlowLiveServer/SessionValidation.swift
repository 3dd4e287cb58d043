import FlowDiagnostics
import FlowLiveProtocol
import FlowPackage
import FlowProject
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `flowpkg validate`'s diagnostics for the project as it is now, as the session page shows
/// them: one incremental `ValidationSession` kept for the life of the server, brought up to
/// date only when the served revision or the project's configuration files changed.
///
/// A revision whose modules are the same names as before, with the same resources and scripts,
/// and whose flowpkg.json, flowpkg.lock and .luacheckrc are untouched, re-checks only the
/// modules whose content tag changed (the project-wide rules then run again over the kept facts
/// of the others); anything else discovers the project again. Thread-safe: one page request
/// validates at a time.
final class ValidationCache: @unchecked Sendable {
    private struct State {
        var session: ValidationSession?
        /// The manifest the session was last brought up to date with.
        var seen: LiveManifest?
        var configuration: [FileStamp?] = []
        var diagnostics: [Diagnostic] = []
    }

    private let root: URL
    private let paths: ProjectPaths
    private let link: @Sendable (String, Int?, Int?) -> String
    // Not `Locked`: a `ValidationSession` is not Sendable; it is only touched under this lock.
    private let lock = Locked(())
    private var state = State()

    init(root: URL, paths: ProjectPaths, link: @escaping @Sendable (String, Int?, Int?) -> String) {
        self.root = root
        self.paths = paths
        self.link = link
    }

    /// The files besides modules, resources and scripts that change what validate reports.
    static let configurationFiles = [ProjectFile.fileName, "flowpkg.lock", ".luacheckrc"]

    /// How many times a module was checked and analysed since the server started: a whole
    /// validation adds every module, an update only the changed ones.
    var modulesAnalysed: Int {
        lock.withLock { _ in state.session?.modulesAnalysed ?? 0 }
    }

    /// The diagnostics of the project as `manifest` (the one served now) describes it, as the
    /// session page shows them.
    func diagnostics(for manifest: LiveManifest) -> [SessionState.DiagnosticRow] {
        report(for: manifest).map(row)
    }

    /// The diagnostics of the project as `manifest` (the one served now) describes it: what
    /// `flowpkg validate` reports, brought up to date incrementally.
    func report(for manifest: LiveManifest) -> [Diagnostic] {
        lock.withLock { _ in
            // flowpkg.json's globals or ignore rules change what is reported, not what is served:
            // such an edit makes no new revision, so the files are looked at on every request.
            let configuration = Self.configurationFiles.map { FileStamp(path: root.appendingPathComponent($0).path) }
            if let seen = state.seen, seen.revision == manifest.revision, seen.identifier == manifest.identifier,
                configuration == state.configuration
            {
                return state.diagnostics
            }
            let session: ValidationSession
            if let kept = state.session, let seen = state.seen, configuration == state.configuration,
                let changed = Self.changedModules(from: seen, to: manifest)
            {
                session = kept
                for (module, path) in session.moduleFiles where changed.contains(module.name) {
                    session.setBuffer(nil, forPath: path)
                }
            } else if let kept = state.session {
                session = kept
                session.reload()
            } else {
                session = ValidationSession(projectAt: root)
                state.session = session
            }
            state.seen = manifest
            state.configuration = configuration
            state.diagnostics = session.report().diagnostics
            return state.diagnostics
        }
    }

    /// The modules whose content changed from `old` to `new`, when that is all that changed:
    /// nil when a module, resource or script came or went, or a script changed.
    static func changedModules(from old: LiveManifest, to new: LiveManifest) -> Set<ModuleName>? {
        guard old.identifier == new.identifier, old.startModule == new.startModule,
            old.modules.map(\.name) == new.modules.map(\.name),
            old.resources.map(\.key) == new.resources.map(\.key),
            old.scripts == new.scripts
        else { return nil }
        var changed: Set<ModuleName> = []
        for (before, after) in zip(old.modules, new.modules) where before.tag != after.tag || before.file != after.file
        {
            changed.insert(after.name)
        }
        return changed
    }

    private func row(_ d: Diagnostic) -> SessionState.DiagnosticRow {
        let path = d.file.map { URL(fileURLWithPath: $0, relativeTo: root).standardizedFileURL.path }
        return SessionState.DiagnosticRow(
            file: path.map(paths.shown), path: path, link: path.map { link($0, d.line, d.column) }, line: d.line,
            column: d.column, severity: d.severity.rawValue, code: d.code.code, message: d.message)
    }
}
