import FlowDependencies
import FlowSupport
import FlowDiagnostics
import FlowPackage

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The modules flowpkg.lock says the dependencies provide, each found in `vendor/` or the cache
/// and checked against its SHA-256 (path dependencies read live from their folders): what
/// discovery adds to a project's own modules. Nothing here runs luarocks or the network.
enum LockedModules {
    struct Found {
        var modules: [ProjectModule] = []
        var origins: [Manifest.Dependency] = []
        var diagnostics: [Diagnostic] = []
    }

    static func find(root: String, file: ProjectFile, options: DependencyOptions) -> Found {
        var found = Found()
        guard !file.dependencies.isEmpty else { return found }
        let lockPath = root + "/" + Lockfile.fileName
        let projectFile = root + "/" + ProjectFile.fileName
        let lock: Lockfile
        do {
            guard let read = try Lockfile.read(at: lockPath) else {
                found.diagnostics.append(
                    unresolved(
                        located(
                            DependencyError.lockOutOfDate(
                                reason: "flowpkg.json lists dependencies, but there is no flowpkg.lock yet"
                            ).diagnostic, file: projectFile)))
                return found
            }
            lock = read
        } catch {
            found.diagnostics.append(located(error.diagnostic, file: lockPath))
            return found
        }
        if let stale = DependencyGraph.staleness(
            of: lock, for: ProjectFolders.dependent(file), root: root, projects: options.projects)
        {
            found.diagnostics.append(
                unresolved(located(DependencyError.lockOutOfDate(reason: stale).diagnostic, file: lockPath)))
            return found
        }
        for dependency in lock.dependencies where options.includesDevelopment || dependency.development != true {
            do {
                let modules: [ProjectModule]
                if dependency.kind == "path" {
                    modules = try pathModules(
                        of: dependency, root: root, locked: options.locked, projects: options.projects)
                } else {
                    modules = try lockedFiles(of: dependency, root: root, file: file, cache: options.cache)
                }
                found.modules += modules
                found.origins.append(
                    Manifest.Dependency(
                        name: dependency.name, kind: dependency.kind, version: dependency.version,
                        modules: modules.map(\.name).sorted()))
            } catch {
                // A path dependency's folder is reported at its entry in flowpkg.json.
                let place =
                    dependency.kind == "path"
                    ? DependencyGraph.declaration(
                        ofPath: dependency, in: lock, root: root, file: ProjectFolders.dependent(file),
                        projects: options.projects) : nil
                found.diagnostics.append((place.map { error.declared(at: $0) } ?? error).diagnostic)
                // Changed since the lock (FP814) is the one finding: its modules are still there, so
                // a require of them is no FP401 as well.
                if case .pathChanged = error,
                    let current = try? pathModules(
                        of: dependency, root: root, locked: false, projects: options.projects)
                {
                    found.modules += current
                }
            }
        }
        return found
    }

    /// A rock's or a package's modules: vendor/NAME/PATH when it is there, else the cache.
    private static func lockedFiles(of dependency: LockedDependency, root: String, file: ProjectFile, cache: FileCache)
        throws(DependencyError) -> [ProjectModule]
    {
        var modules: [ProjectModule] = []
        for module in dependency.modules {
            guard let name = try? ModuleName(module.name) else { continue }
            try module.checkPlace(in: dependency)
            var path: String
            if let vendored = try VendorFolder.existing(root: root, dependency: dependency.name, path: module.path) {
                // A file of another size is not the locked one: it is never read whole to tell.
                let size = (try? FileManager.default.attributesOfItem(atPath: vendored)[.size] as? Int) ?? nil
                guard size.map(Int64.init) == module.size else {
                    throw .hashMismatch(
                        file: vendored, expected: module.sha256,
                        actual: "a file of \(size.map(String.init) ?? "unknown") bytes, not \(module.size)")
                }
                let actual = try FileCache.sha256(ofFileAt: vendored)
                guard actual == module.sha256 else {
                    throw .hashMismatch(file: vendored, expected: module.sha256, actual: actual)
                }
                path = vendored
            } else if let copy = try readableCopy(of: module, in: dependency, cache: cache) {
                path = copy
            } else if dependency.kind == "package",
                try PackageDependencies.refill(dependency, root: root, cache: cache),
                let copy = try readableCopy(of: module, in: dependency, cache: cache)
            {
                path = copy
            } else {
                throw .unavailableOffline(dependency: dependency.name, file: module.path)
            }
            modules.append(
                ProjectModule(
                    name: name, file: URL(fileURLWithPath: path), relativePath: module.path, dependency: dependency.name
                ))
        }
        return modules
    }

    /// The cache's file for `module`, checked, under a name an editor shows well
    /// (`sources/penlight-1.13.1-1-3f2a9c1b/pl/pretty.lua`); nil when the cache lacks it.
    private static func readableCopy(of module: LockedModule, in dependency: LockedDependency, cache: FileCache)
        throws(DependencyError) -> String?
    {
        try cache.readableCopy(
            of: module.sha256, dependency: dependency.name, version: dependency.version, tag: dependency.sha256,
            path: module.path)
    }

    /// A path dependency's modules, read from its folder as it is now; with `locked`, a file
    /// whose bytes differ from the lock's is refused.
    private static func pathModules(
        of dependency: LockedDependency, root: String, locked: Bool, projects: any ProjectFolderReading
    ) throws(DependencyError) -> [ProjectModule] {
        let current = try PathDependencies.modules(
            name: dependency.name, path: dependency.origin, root: root, projects: projects)
        if locked {
            let recorded = Dictionary(uniqueKeysWithValues: dependency.modules.map { ($0.name, $0.sha256) })
            for module in current.modules where recorded[module.name] != module.sha256 {
                throw .pathChanged(dependency: dependency.name, file: module.path)
            }
            let names = Set(current.modules.map(\.name))
            if let gone = dependency.modules.first(where: { !names.contains($0.name) }) {
                throw .pathChanged(
                    dependency: dependency.name,
                    file: PathText.resolve(dependency.origin, against: root) + "/" + gone.path)
            }
        }
        return current.modules.compactMap { module in
            guard let name = try? ModuleName(module.name) else { return nil }
            return ProjectModule(
                name: name, file: URL(fileURLWithPath: module.path), relativePath: module.relativePath,
                dependency: dependency.name)
        }
    }

    /// A lock that is missing or stale is a warning here: validate, run, serve and lsp read
    /// what is locked and never resolve; export resolves first (or, with --locked or
    /// --offline, refuses: `DependencyLocking.prepare`).
    static func unresolved(_ diagnostic: Diagnostic) -> Diagnostic {
        var diagnostic = diagnostic
        diagnostic.severity = .warning
        return diagnostic
    }

    static func located(_ diagnostic: Diagnostic, file: String) -> Diagnostic {
        DependencyLocking.located(diagnostic, file: file)
    }
}
