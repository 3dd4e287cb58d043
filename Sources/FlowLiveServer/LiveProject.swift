import FlowDiagnostics
import FlowDependencies
import FlowLiveProtocol
import FlowPackage
import FlowProject
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

/// The project as it is on disk now, as the live server serves it.
///
/// `rescan()` rebuilds the model through `ProjectLoader`, so the server never serves a name
/// the model does not have, and reports what changed since the last scan. Thread-safe.
public final class LiveProject: Sendable {
    /// A scan's outcome: the change to push, or why the project could not be read.
    public enum ScanResult: Sendable {
        case unchanged
        case changed(LiveChange)
        /// The project does not load now (a broken flowpkg.json mid-edit); the last good state stays served.
        case failed([Diagnostic])
    }

    private struct State {
        var project: Project
        var manifest: LiveManifest
        var moduleFiles: [String: ProjectModule]
        var resourceFiles: [ResourceKey: ProjectResource]
        var scriptFiles: [String: ProjectScript]
    }

    public let root: URL
    /// The last good scan, and each module file's tag by its size and time.
    private struct Scan {
        var state: State?
        var moduleTags: [URL: (FileStamp, String)] = [:]
    }

    private let scan = Locked(Scan())

    /// Loads the project once; throws the diagnostics as an error when it cannot be read at all.
    public init(root: URL) throws {
        self.root = root
        if case .failed(let diagnostics) = rescan() {
            throw LiveProjectError(root: root, diagnostics: diagnostics)
        }
    }

    /// The manifest of the last good scan.
    public var manifest: LiveManifest {
        // `init` made the first scan and threw if it failed: there is always a state. The
        // empty manifest only keeps a broken invariant from crashing the server.
        scan.withLock { $0.state?.manifest }
            ?? LiveManifest(identifier: "", name: "", revision: 0, startModule: nil, modules: [], resources: [])
    }

    /// The folders whose changes matter: sources, resources, linked files' folders and the root.
    public var watchedFolders: [URL] {
        guard let state = scan.withLock({ $0.state }) else { return [root] }
        var folders = Set([root.standardizedFileURL])
        for entry in state.project.projectFile.sources {
            folders.insert(root.appendingPathComponent(entry).standardizedFileURL)
        }
        for entry in state.project.projectFile.resources {
            switch entry {
            case .folder(let path): folders.insert(root.appendingPathComponent(path).standardizedFileURL)
            case .linked(let path, _):
                let url = root.appendingPathComponent(path).standardizedFileURL
                var isDirectory = false
                let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
                folders.insert(exists && isDirectory ? url : url.deletingLastPathComponent())
            }
        }
        // Path dependencies: their modules are served live too, so their folders are watched.
        for dependency in state.project.projectFile.dependencies {
            if case .path(let path) = dependency.source {
                folders.insert(root.appendingPathComponent(path).standardizedFileURL)
            }
        }
        // And the source folders of their own path dependencies, found from the modules they give.
        let pathDependencies = Set(state.project.dependencies.filter { $0.kind == "path" }.map(\.name))
        for module in state.project.modules where module.dependency.map(pathDependencies.contains) == true {
            let file = module.file.standardizedFileURL.path
            if file.hasSuffix("/" + module.relativePath) {
                folders.insert(URL(fileURLWithPath: String(file.dropLast(module.relativePath.count + 1))))
            }
        }
        return folders.sorted { $0.path < $1.path }
    }

    /// The bytes of a module the model has, or nil for any other name.
    public func moduleData(named name: String) throws -> [UInt8]? {
        guard let module = scan.withLock({ $0.state?.moduleFiles[name] }) else { return nil }
        return try [UInt8](Data(contentsOf: module.file))
    }

    /// The bytes of a resource the model has, or nil for any other name.
    public func resourceData(name: String, type: String) throws -> [UInt8]? {
        guard let key = try? ResourceKey(name: name, type: type) else { return nil }
        guard let resource = scan.withLock({ $0.state?.resourceFiles[key] }) else { return nil }
        return try [UInt8](Data(contentsOf: resource.file))
    }

    /// The bytes of a script the model has (by its path under the sources folder), or nil for any other path.
    public func scriptData(atPath path: String) throws -> [UInt8]? {
        guard let script = scan.withLock({ $0.state?.scriptFiles[path] }) else { return nil }
        return try [UInt8](Data(contentsOf: script.file))
    }

    /// Reads the project again and tells what changed.
    @discardableResult
    public func rescan() -> ScanResult {
        let (project, diagnostics) = ProjectLoader.load(from: root)
        guard let project, !diagnostics.contains(where: { $0.severity == .error && $0.code.area == .projectFile })
        else {
            return .failed(diagnostics.filter { $0.severity == .error })
        }
        return scan.withLock { scan in
            let modules = project.modules.map { module in
                LiveManifest.Module(
                    name: module.name, path: module.relativePath,
                    tag: Self.tag(of: module.file, cache: &scan.moduleTags), file: relativeFile(module.file))
            }
            let resources = project.resources.map { resource in
                LiveManifest.Resource(key: resource.key, tag: Self.stampTag(of: resource.file))
            }
            // A script's tag is its SHA-256, as a module's: its bytes are what a reload runs.
            let scripts = project.scripts.map { script in
                LiveManifest.Script(
                    path: script.relativePath, tag: Self.tag(of: script.file, cache: &scan.moduleTags),
                    file: relativeFile(script.file))
            }
            let previous = scan.state?.manifest
            let revision = (previous?.revision ?? 0) + 1
            var manifest = LiveManifest(
                identifier: project.identifier.rawValue, name: project.projectFile.name, revision: revision,
                startModule: project.startModule, modules: modules, resources: resources, scripts: scripts)
            let change = LiveChange.between(previous, manifest)
            if let previous, change.isEmpty, previous.identifier == manifest.identifier {
                manifest.revision = previous.revision
                return .unchanged
            }
            scan.state = State(
                project: project, manifest: manifest,
                moduleFiles: Dictionary(
                    project.modules.map { ($0.name.rawValue, $0) }, uniquingKeysWith: { a, _ in a }),
                resourceFiles: Dictionary(
                    project.resources.map { ($0.key, $0) },
                    uniquingKeysWith: { a, _ in a }),
                scriptFiles: Dictionary(project.scripts.map { ($0.relativePath, $0) }, uniquingKeysWith: { a, _ in a }))
            return .changed(
                LiveChange(
                    revision: revision, modules: change.modules, removedModules: change.removedModules,
                    resources: change.resources, removedResources: change.removedResources,
                    scripts: change.scripts, removedScripts: change.removedScripts))
        }
    }

    /// `file` relative to the project folder, or its whole path when it lies outside.
    func relativeFile(_ file: URL) -> String {
        let base = root.standardizedFileURL.path, path = file.standardizedFileURL.path
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// A module's tag is its SHA-256, recomputed only when its size or time changed.
    private static func tag(of file: URL, cache: inout [URL: (FileStamp, String)]) -> String {
        let stamp = Self.stamp(of: file)
        if let stamp, let cached = cache[file], cached.0 == stamp { return cached.1 }
        guard let data = try? Data(contentsOf: file) else { return "unreadable" }
        let digest = SHA256.hex(of: data)
        if let stamp { cache[file] = (stamp, digest) }
        return digest
    }

    /// A resource's tag is its size and modification time: hashing large media on every save costs too much.
    private static func stampTag(of file: URL) -> String {
        guard let stamp = Self.stamp(of: file) else { return "missing" }
        return "\(stamp.size)-\(stamp.modified)"
    }

    private static func stamp(of file: URL) -> FileStamp? {
        FileStamp(path: file.path)
    }
}

/// The project a live server was asked to serve cannot be read.
public struct LiveProjectError: Error, CustomStringConvertible {
    public var root: URL
    public var diagnostics: [Diagnostic]

    public var description: String {
        let details = diagnostics.map { d in
            [d.file, d.line.map(String.init), d.column.map(String.init)].compactMap { $0 }.joined(separator: ":")
                + ": \(d.severity.rawValue): \(d.message) [\(d.code)]"
        }
        return (["cannot serve \(root.path): the project does not load"] + details).joined(separator: "\n")
    }
}
