import FlowDependencies
import FlowDiagnostics
import FlowPackage

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
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
            guard let data = FileManager.default.contents(atPath: module.file.path) else {
                throw .io(path: module.file.path, reason: "it cannot be read")
            }
            let bytes = [UInt8](data)
            var copy = module
            copy.dependency = name
            modules.append(copy)
            locked.append(
                LockedModule(
                    name: module.name.rawValue, path: module.relativePath, size: Int64(bytes.count),
                    sha256: Hashing.sha256(bytes)))
        }
        return Modules(modules: modules, locked: locked, version: project.projectFile.version, folder: folder)
    }

    /// The dependency as the lock pins it; its SHA-256 covers every module's path and hash.
    static func lock(name: String, path: String, root: String) throws(DependencyError) -> LockedDependency {
        let found = try modules(name: name, path: path, root: root)
        let lines = found.locked.sorted { $0.path < $1.path }.map { "\($0.path):\($0.sha256)\n" }.joined()
        return LockedDependency(
            kind: "path", name: name, version: found.version, origin: path, sha256: Hashing.sha256(Array(lines.utf8)),
            requested: path, dependencies: [], modules: found.locked)
    }
}

/// A `.luapkg` library (`{"package": "vendor/charts-2.0.0.luapkg"}`): read through FlowPackage's
/// reader, which checks its manifest and every entry's hash; its modules go to the cache.
enum PackageDependencies {
    static func lock(name: String, path: String, root: String, cache: FileCache) throws(DependencyError)
        -> LockedDependency
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
        return LockedDependency(
            kind: "package", name: name, version: reader.manifest.version, origin: path,
            sha256: try Hashing.sha256(ofFileAt: file), requested: path, dependencies: [], modules: modules)
    }

    /// Puts a locked package's modules back in the cache from the package file, when the file is
    /// still the one locked. False when it is gone.
    static func refill(_ dependency: LockedDependency, root: String, cache: FileCache) throws(DependencyError) -> Bool {
        let file = PathText.resolve(dependency.origin, against: root)
        guard FileManager.default.fileExists(atPath: file) else { return false }
        let actual = try Hashing.sha256(ofFileAt: file)
        guard actual == dependency.sha256 else {
            throw .hashMismatch(file: file, expected: dependency.sha256, actual: actual)
        }
        let relocked = try lock(name: dependency.name, path: dependency.origin, root: root, cache: cache)
        for module in dependency.modules where !relocked.modules.contains(module) {
            throw .hashMismatch(file: file + ": " + module.path, expected: module.sha256, actual: "another file")
        }
        return true
    }
}
