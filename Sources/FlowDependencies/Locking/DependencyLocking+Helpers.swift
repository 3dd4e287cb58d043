import FlowSupport
import FlowJSON
import FlowDiagnostics
import FlowPackage

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The small constraint arithmetic and failures the dependency commands share.
extension DependencyLocking {
    /// `>= 1.2, < 2` for 1.2.3-1 (`>= 0.3, < 0.4` for 0.3.1-1): what `add NAME` records, so
    /// `update` moves within the release line, as cargo's `^1.2` does.
    static func compatibleConstraint(_ version: String) -> String {
        let parts = version.split(separator: "-")[0].split(separator: ".").map(String.init)
        let major = Int(parts.first ?? "") ?? 0
        let minor = parts.count > 1 ? parts[1] : "0"
        let lower = ">= \(major).\(minor)"
        if major == 0, let minorNumber = Int(minor) { return lower + ", < 0.\(minorNumber + 1)" }
        return lower + ", < \(major + 1)"
    }

    /// `add NAME` alone: flowpkg.json gets the locked version's release line (`>= MAJOR.MINOR,
    /// < MAJOR+1`), for a rock the host provides too; the edited bytes, nil when `name` is not locked.
    static func pinToReleaseLine(_ name: String, key: String, editor: ProjectFileEditor, lock: inout Lockfile)
        -> [UInt8]?
    {
        let host = lock.providedByHost.firstIndex { $0.name == name && $0.requested != nil }
        guard let version = lock.dependency(named: name)?.version ?? host.map({ lock.providedByHost[$0].version })
        else { return nil }
        let constraint = compatibleConstraint(version)
        var pinned = editor
        try? pinned.setDependency(name, value: JSONText.quoted(constraint), key: key)
        if let index = lock.dependencies.firstIndex(where: { $0.name == name }) {
            lock.dependencies[index].requested = constraint
        }
        if let host { lock.providedByHost[host].requested = constraint }
        return pinned.bytes
    }

    /// `added inspect to flowpkg.json`, or for a name it already listed, `changed inspect in
    /// flowpkg.json: rock '~> 3.0' -> rock '>= 3.1, < 4'` (what `lock` pinned it to).
    static func addedLine(_ name: String, before: DependentProject?, after: DependentProject, lock: Lockfile)
        -> String
    {
        guard let old = before?.dependencies.first(where: { $0.name == name }) else {
            return "added \(name) to \(DependentProject.fileName)"
        }
        let described = { (declaration: DependencyDeclaration) in
            "\(declaration.kind) '\(declaration.requested)'" + (declaration.isDevelopment ? " (dev)" : "")
        }
        guard var new = after.dependencies.first(where: { $0.name == name }) else {
            return "changed \(name) in \(DependentProject.fileName)"
        }
        if case .rock = new.source,
            let pinned = lock.dependency(named: name)?.requested
                ?? lock.providedByHost.first(where: { $0.name == name })?.requested
        {
            new.source = .rock(constraint: pinned)
        }
        return "changed \(name) in \(DependentProject.fileName): \(described(old)) -> \(described(new))"
    }

    /// `add NAME --rocks-server URL`: the servers go to flowpkg.json's `rocksServers` (after
    /// those it lists; a folder relative to the project), so `lock` and `update` use them later.
    static func recordServers(
        _ servers: [String]?, in editor: inout ProjectFileEditor, file: DependentProject?, root: String
    ) throws(ProjectFileEditor.EditError) {
        guard let servers, !servers.isEmpty else { return }
        let listed = file?.rocksServers ?? []
        let resolved = Set(listed.map { $0.contains("://") ? $0 : PathText.resolve($0, against: root) })
        let added = servers.filter { !resolved.contains($0) }.map { server in
            server.contains("://") ? server : PathText.relative(server, from: root)
        }
        guard !added.isEmpty else { return }
        let all = listed + added
        try editor.setValue("[" + all.map(JSONText.quoted).joined(separator: ", ") + "]", forKey: "rocksServers")
    }

    static func failure(_ code: DiagnosticCode, _ message: String, file: String, hint: String? = nil) -> Outcome {
        Outcome(
            lock: nil, diagnostics: [Diagnostic(severity: .error, code: code, message: message, file: file, hint: hint)]
        )
    }
}

extension DependencyLocking {
    /// `dependencies` with `development` set on each that only `devDependencies` reach: what
    /// `dependencies` reach, following each one's own (`say >= 1.4` names `say`), is not.
    static func markDevelopment(_ dependencies: [LockedDependency], declarations: [DependencyDeclaration])
        -> [LockedDependency]
    {
        let byName = Dictionary(dependencies.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var reached = Set<String>()
        var queue = declarations.filter { !$0.isDevelopment }.map(\.name)
        while let name = queue.popLast() {
            guard reached.insert(name).inserted, let dependency = byName[name] else { continue }
            queue += dependency.dependencies.compactMap { $0.split(separator: " ").first.map(String.init) }
        }
        return dependencies.map { dependency in
            var marked = dependency
            marked.development = reached.contains(dependency.name) ? nil : true
            return marked
        }
    }
}

extension DependencyLocking {
    /// The diagnostic, filed under `file` when it names none.
    public static func located(_ diagnostic: Diagnostic, file: String) -> Diagnostic {
        var diagnostic = diagnostic
        if diagnostic.file == nil { diagnostic.file = file }
        return diagnostic
    }
}

extension LockedModule {
    /// A lock is read from disk: its names and paths must stay below vendor/NAME/.
    public func checkPlace(in dependency: LockedDependency) throws(DependencyError) {
        if let problem = DependencyDeclaration.nameProblem(dependency.name) ?? LockedModule.pathProblem(path) {
            throw .lockOutOfDate(
                reason:
                    "flowpkg.lock names the file '\(path)' of '\(dependency.name)', which cannot be used: \(problem)"
            )
        }
    }
}
