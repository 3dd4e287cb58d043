import FlowLoader
import FlowPackage
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Serves a project folder as it is on disk (`flowpkg run DIR`), through the project model:
/// only the modules and resources the project has, each file read when it is asked for, so an
/// edit shows at the next load.
public final class ProjectFolderSource: PackageSource {
    public let kind = SourceKind.projectFolder
    public let location: String
    public let identifier: PackageIdentifier
    public let project: Project
    private let modules: [ModuleName: ProjectModule]
    private let resources: [ResourceKey: ProjectResource]
    /// Chunk names are module files relative to this folder (absolute outside it), as
    /// validate prints them; nil names them relative to their sources folder.
    public let workingDirectory: String?

    /// With `workingDirectory`, Lua errors name a module's file as validate does
    /// (`Hello/Sources/Main.lua:5:`), so editors can jump to them.
    public init(project: Project, workingDirectory: String? = nil) {
        self.project = project
        self.workingDirectory = workingDirectory
        self.identifier = project.identifier
        self.location = project.root.path
        self.modules = Dictionary(project.modules.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.resources = Dictionary(project.resources.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public func module(named name: ModuleName) throws -> ModuleCode? {
        guard let module = modules[name] else { return nil }
        return ModuleCode(
            name: name, chunkName: chunkName(file: module.file, relativePath: module.relativePath),
            bytes: try read(module.file), path: module.relativePath)
    }

    /// The script at `path`, relative to its sources folder, read now.
    public func script(atPath path: String) throws -> ScriptCode? {
        guard let script = project.script(atPath: path) else { return nil }
        return ScriptCode(
            path: path, chunkName: chunkName(file: script.file, relativePath: path), bytes: try read(script.file))
    }

    /// `App/Sources/main.lua`, as `module(named:)` names it.
    public func chunkName(ofModule name: ModuleName) -> String? {
        modules[name].map { chunkName(file: $0.file, relativePath: $0.relativePath) }
    }

    /// Each sources folder.
    public var moduleFolders: [String] {
        project.projectFile.sources.map { project.root.appendingPathComponent($0).standardizedFileURL.path }
    }

    /// `a/b.lua` and `a/b/init.lua` in each sources folder, named as chunks are.
    public func searchedPaths(for name: ModuleName) -> [String] {
        let relative = PackagePath.modulePaths(for: name).map { String($0.dropFirst(PackagePath.modulesFolder.count)) }
        return project.projectFile.sources.flatMap { folder in
            relative.map { path in
                let file = project.root.appendingPathComponent(folder).appendingPathComponent(path)
                return chunkName(file: file, relativePath: folder + "/" + path)
            }
        }
    }

    public func resource(_ key: ResourceKey) throws -> [UInt8]? {
        guard let resource = resources[key] else { return nil }
        return try read(resource.file)
    }

    private func chunkName(file: URL, relativePath: String) -> String {
        guard let workingDirectory else { return relativePath }
        let path = file.path
        let prefix = workingDirectory.hasSuffix("/") ? workingDirectory : workingDirectory + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    private func read(_ file: URL) throws -> [UInt8] {
        do {
            return Array(try Data(contentsOf: file))
        } catch {
            throw LoaderError.itemRefused(
                item: file.path, location: location,
                reason: "it cannot be read (\(failureReason(error)))")
        }
    }
}
