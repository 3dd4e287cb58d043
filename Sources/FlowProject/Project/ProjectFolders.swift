import FlowDependencies
import FlowDiagnostics
import FlowPackage
import FlowSupport

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

/// Project folders as FlowDependencies' commands need them: flowpkg.json decoded by
/// `ProjectFileDecoder`, a path dependency's modules found by discovery and held to the app's
/// own rules (links, validate's size limit).
public struct ProjectFolders: ProjectFolderReading {
    public init() {}

    public func read(folder: String) -> ProjectRead {
        let path = folder + "/" + ProjectFile.fileName
        guard let data = FileManager.default.contents(atPath: path) else {
            return ProjectRead(
                file: nil, bytes: nil,
                diagnostics: [
                    Diagnostic(
                        severity: .error, code: .projectUnreadable, message: "no \(ProjectFile.fileName) in \(folder)",
                        file: path, hint: "run the command in a project folder, or create one with 'flowpkg new'")
                ])
        }
        return decode([UInt8](data), path: path)
    }

    public func decode(_ bytes: [UInt8], path: String) -> ProjectRead {
        let decoded = ProjectFileDecoder(path: path).decode(bytes)
        let errors = decoded.diagnostics.filter { $0.severity == .error }
        return ProjectRead(
            file: errors.isEmpty ? decoded.projectFile.map(Self.dependent) : nil, bytes: bytes, diagnostics: errors)
    }

    /// What FlowDependencies sees of a decoded project file.
    static func dependent(_ file: ProjectFile) -> DependentProject {
        DependentProject(
            name: file.name, version: file.version, dependencies: file.dependencies, rocksServers: file.rocksServers,
            isExternalModule: { file.isExternalModule($0) })
    }

    /// As a linked resource: outside the project's git work tree only with the opt-in (a pull
    /// request writes flowpkg.json), never in /proc. A project in no work tree has sibling
    /// folders as dependencies, as before. Modules are read within validate's limit (FP303).
    public func pathDependency(named name: String, path: String, folder: String, root: String)
        throws(DependencyError) -> PathDependencyFolder
    {
        try Self.checkPlace(of: folder, name: name, linkedAs: path, root: root)
        let discovery = ProjectLoader.discover(in: URL(fileURLWithPath: folder), includeDependencies: false)
        guard let project = discovery.project else {
            let first = discovery.diagnostics.first { $0.severity == .error }
            throw .pathUnusable(
                name: name, path: folder,
                reason: first.map { ($0.file.map { "\($0): " } ?? "") + $0.message } ?? "it is not a flowpkg project")
        }
        var modules: [FolderModule] = []
        for module in project.modules where module.dependency == nil {
            let limit = ValidationOptions.defaultMaximumModuleSize
            let bytes: [UInt8]
            switch SourceFile.contents(of: module.file.path, maximumSize: limit) {
            case .success(let read): bytes = read
            case .failure(.tooLarge(let size)):
                throw .moduleTooLarge(dependency: name, file: module.file.path, size: size, limit: limit)
            case .failure(.unreadable(let reason)): throw .io(path: module.file.path, reason: reason)
            }
            modules.append(
                FolderModule(
                    name: module.name.rawValue, relativePath: module.relativePath, path: module.file.path,
                    size: Int64(bytes.count), sha256: SHA256.hex(of: bytes)))
        }
        return PathDependencyFolder(
            modules: modules, version: project.projectFile.version,
            declarations: project.projectFile.dependencies.filter { !$0.isDevelopment })
    }

    /// The folder of a path dependency, refused when it leads outside the repository.
    private static func checkPlace(of folder: String, name: String, linkedAs path: String, root: String)
        throws(DependencyError)
    {
        let realRoot = FileTree.realPath(root) ?? root
        let rule = LinkRule(projectRoot: realRoot, allowsOutside: OutsideLinks.allowedByEnvironment)
        var gitFolder = stat()
        let inWorkTree = rule.repositoryRoot != realRoot || lstat(realRoot + "/.git", &gitFolder) == 0
        guard let real = FileTree.realPath(folder), let refusal = rule.refusal(of: real) else { return }
        if refusal != .holdsProject(target: real), inWorkTree || !refusal.isAllowedByOptIn {
            let (message, hint) = rule.explain(refusal, link: path, what: "its folder")
            throw .pathOutsideRepository(name: name, path: folder, message: message, hint: hint)
        }
    }
}
