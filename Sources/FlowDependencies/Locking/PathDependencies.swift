import FlowSupport
import FlowDiagnostics
import FlowPackage

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Another flowpkg project used by path (`{"path": "../ui-kit"}`): its own modules, read from
/// its folder each time (through FlowProject's discovery), so `run` and `serve` see its edits at once.
public enum PathDependencies {
    public struct Modules: Sendable {
        public var modules: [FolderModule]
        public var version: String
        public var folder: String
        /// Its own flowpkg.json's `dependencies` (paths relative to `folder`).
        public var declarations: [DependencyDeclaration]
    }

    public static func modules(name: String, path: String, root: String, projects: any ProjectFolderReading)
        throws(DependencyError) -> Modules
    {
        let folder = PathText.resolve(path, against: root)
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory else {
            throw .pathUnusable(name: name, path: folder, reason: "there is no such folder")
        }
        guard folder != PathText.resolve(".", against: root) else {
            throw .pathUnusable(name: name, path: folder, reason: "it is this project itself")
        }
        let found = try projects.pathDependency(named: name, path: path, folder: folder, root: root)
        return Modules(modules: found.modules, version: found.version, folder: folder, declarations: found.declarations)
    }

    /// The dependency as the lock pins it; its SHA-256 covers every module's path and hash.
    /// `path` is relative to `root` (the app's folder); `requested` is nil for a dependency's own.
    static func lock(
        name: String, path: String, root: String, requested: String?, projects: any ProjectFolderReading
    ) throws(DependencyError) -> (LockedDependency, Modules) {
        let found = try modules(name: name, path: path, root: root, projects: projects)
        let locked = found.modules.map {
            LockedModule(name: $0.name, path: $0.relativePath, size: $0.size, sha256: $0.sha256)
        }
        let lines = locked.sorted { $0.path < $1.path }.map { "\($0.path):\($0.sha256)\n" }.joined()
        let dependency = LockedDependency(
            kind: "path", name: name, version: found.version, origin: path, sha256: SHA256.hex(of: Array(lines.utf8)),
            requested: requested, dependencies: found.declarations.map(DependencyGraph.ownDependency).sorted(),
            modules: locked)
        return (dependency, found)
    }
}

/// A `.luapkg` library (`{"package": "vendor/charts-2.0.0.luapkg"}`): read through FlowPackage's
/// reader, which checks its manifest and every entry's hash; its modules go to the cache.
public enum PackageDependencies {
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
    public static func refill(_ dependency: LockedDependency, root: String, cache: FileCache) throws(DependencyError)
        -> Bool
    {
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
