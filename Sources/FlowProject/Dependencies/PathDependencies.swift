import FlowDependencies
import FlowSupport
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

/// Another flowpkg project used by path (`{"path": "../ui-kit"}`): its own modules, read from
/// its folder each time, so `run` and `serve` see its edits at once.
enum PathDependencies {
    struct Modules {
        var modules: [ProjectModule]
        /// The same modules as the lock records them (parallel to `modules`).
        var locked: [LockedModule]
        var version: String
        var folder: String
        /// Its own flowpkg.json's `dependencies` (paths relative to `folder`).
        var declarations: [DependencyDeclaration]
    }

    static func modules(name: String, path: String, root: String) throws(DependencyError) -> Modules {
        let folder = PathText.resolve(path, against: root)
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory else {
            throw .pathUnusable(name: name, path: folder, reason: "there is no such folder")
        }
        guard folder != PathText.resolve(".", against: root) else {
            throw .pathUnusable(name: name, path: folder, reason: "it is this project itself")
        }
        // As a linked resource: outside the project's git work tree only with the opt-in (a pull
        // request writes flowpkg.json), never in /proc. A project in no work tree has sibling
        // folders as dependencies, as before.
        let realRoot = FileTree.realPath(root) ?? root
        let rule = LinkRule(projectRoot: realRoot, allowsOutside: OutsideLinks.allowedByEnvironment)
        var gitFolder = stat()
        let inWorkTree = rule.repositoryRoot != realRoot || lstat(realRoot + "/.git", &gitFolder) == 0
        if let real = FileTree.realPath(folder) {
            let refusal = rule.refusal(of: real)
            if let refusal, refusal != .holdsProject(target: real), inWorkTree || !refusal.isAllowedByOptIn {
                let (message, hint) = rule.explain(refusal, link: path, what: "its folder")
                throw .pathOutsideRepository(name: name, path: folder, message: message, hint: hint)
            }
        }
        let discovery = ProjectLoader.discover(in: URL(fileURLWithPath: folder), includeDependencies: false)
        guard let project = discovery.project else {
            let first = discovery.diagnostics.first { $0.severity == .error }
            throw .pathUnusable(
                name: name, path: folder,
                reason: first.map { ($0.file.map { "\($0): " } ?? "") + $0.message } ?? "it is not a flowpkg project")
        }
        var modules: [ProjectModule] = []
        var locked: [LockedModule] = []
        for module in project.modules where module.dependency == nil {
            // Read within validate's limit (FP303): a dependency's module is no bigger than the app's.
            let limit = ValidationOptions.defaultMaximumModuleSize
            let bytes: [UInt8]
            switch SourceFile.contents(of: module.file.path, maximumSize: limit) {
            case .success(let read): bytes = read
            case .failure(.tooLarge(let size)):
                throw .moduleTooLarge(dependency: name, file: module.file.path, size: size, limit: limit)
            case .failure(.unreadable(let reason)): throw .io(path: module.file.path, reason: reason)
            }
            var copy = module
            copy.dependency = name
            modules.append(copy)
            locked.append(
                LockedModule(
                    name: module.name.rawValue, path: module.relativePath, size: Int64(bytes.count),
                    sha256: SHA256.hex(of: bytes)))
        }
        return Modules(
            modules: modules, locked: locked, version: project.projectFile.version, folder: folder,
            declarations: project.projectFile.dependencies.filter { !$0.isDevelopment })
    }

    /// The dependency as the lock pins it; its SHA-256 covers every module's path and hash.
    /// `path` is relative to `root` (the app's folder); `requested` is nil for a dependency's own.
    static func lock(name: String, path: String, root: String, requested: String?) throws(DependencyError) -> (
        LockedDependency, Modules
    ) {
        let found = try modules(name: name, path: path, root: root)
        let lines = found.locked.sorted { $0.path < $1.path }.map { "\($0.path):\($0.sha256)\n" }.joined()
        let locked = LockedDependency(
            kind: "path", name: name, version: found.version, origin: path, sha256: SHA256.hex(of: Array(lines.utf8)),
            requested: requested, dependencies: found.declarations.map(DependencyGraph.ownDependency).sorted(),
            modules: found.locked)
        return (locked, found)
    }
}

/// A `.luapkg` library (`{"package": "vendor/charts-2.0.0.luapkg"}`): read through FlowPackage's
/// reader, which checks its manifest and every entry's hash; its modules go to the cache.
enum PackageDependencies {
    /// The package as the lock pins it, then one entry for each dependency its manifest says it
    /// was built with (their modules are in the package; the package's own entry lists them as
    /// its dependencies). `path` is relative to `root`; `requested` is nil for a dependency's own.
    static func lock(name: String, path: String, root: String, requested: String?, cache: FileCache)
        throws(DependencyError) -> [LockedDependency]
    {
        let file = PathText.resolve(path, against: root)
        guard FileManager.default.fileExists(atPath: file) else {
            throw .packageUnusable(name: name, path: file, reason: "there is no such file")
        }
        let reader: PackageReader
        do {
            reader = try PackageReader(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw .packageUnusable(name: name, path: file, reason: "\(error)")
        }
        let problems = reader.verify()
        if let problem = problems.first {
            throw .packageUnusable(name: name, path: file, reason: problem.description)
        }
        var modules: [LockedModule] = []
        for module in reader.manifest.modules {
            let bytes: [UInt8]
            do {
                bytes = try reader.moduleData(module)
            } catch {
                throw .packageUnusable(name: name, path: file, reason: "\(error)")
            }
            let sha = try cache.store(bytes)
            modules.append(
                LockedModule(
                    name: module.name.rawValue, path: String(module.path.dropFirst(PackagePath.modulesFolder.count)),
                    size: Int64(bytes.count), sha256: sha))
        }
        let packageSHA = try FileCache.sha256(ofFileAt: file)
        var bundled: [LockedDependency] = []
        var taken = Set<String>()
        for dependency in reader.manifest.dependencies {
            if let problem = DependencyDeclaration.nameProblem(dependency.name) {
                throw .packageUnusable(
                    name: name, path: file,
                    reason: "its manifest lists a dependency named '\(dependency.name)', which is not valid: \(problem)"
                )
            }
            let names = Set(dependency.modules.map(\.rawValue))
            guard !names.isEmpty, dependency.name != name else { continue }
            taken.formUnion(names)
            bundled.append(
                LockedDependency(
                    kind: "package", name: dependency.name, version: dependency.version, origin: path,
                    sha256: packageSHA, requested: nil, dependencies: [],
                    modules: modules.filter { names.contains($0.name) }))
        }
        let own = LockedDependency(
            kind: "package", name: name, version: reader.manifest.version, origin: path, sha256: packageSHA,
            requested: requested, dependencies: bundled.map { "\($0.name) == \($0.version)" }.sorted(),
            modules: modules.filter { !taken.contains($0.name) })
        return [own] + bundled
    }

    /// Puts a locked package's modules back in the cache from the package file, when the file is
    /// still the one locked. False when it is gone.
    static func refill(_ dependency: LockedDependency, root: String, cache: FileCache) throws(DependencyError) -> Bool {
        let file = PathText.resolve(dependency.origin, against: root)
        guard FileManager.default.fileExists(atPath: file) else { return false }
        let actual = try FileCache.sha256(ofFileAt: file)
        guard actual == dependency.sha256 else {
            throw .hashMismatch(file: file, expected: dependency.sha256, actual: actual)
        }
        let relocked = try lock(
            name: dependency.name, path: dependency.origin, root: root, requested: nil, cache: cache
        ).flatMap(\.modules)
        for module in dependency.modules where !relocked.contains(module) {
            throw .hashMismatch(file: file + ": " + module.path, expected: module.sha256, actual: "another file")
        }
        return true
    }
}
