import FlowLiveProtocol
import FlowProject
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Between the editor's files and the program's chunks. A project folder's module is a file
/// whose chunk name is its path (relative to the program's working directory when inside it);
/// a module from a package, or any chunk with no file, is served through a source reference.
/// A file of a project is also matched by module name, so a breakpoint set in `Sources/Main.lua`
/// applies to module `Main` run from the project's package.
struct SourceMap {
    let workingDirectory: String
    private var references: [String: Int] = [:]
    private var keys: [Int: DebugSourceKey] = [:]
    private var projects: [String: Project] = [:]

    init(workingDirectory: String) {
        self.workingDirectory = workingDirectory
    }

    /// The DAP source of a chunk.
    mutating func source(for key: DebugSourceKey) -> DAPSource {
        let name = key.module.map { $0 + ".lua" } ?? String(key.chunk.split(separator: "/").last ?? "")
        if let path = file(named: key.chunk) { return DAPSource(name: name, path: path) }
        let reference = references[key.chunk] ?? (references.count + 1)
        references[key.chunk] = reference
        keys[reference] = key
        return DAPSource(name: name, path: nil, sourceReference: reference)
    }

    /// The file a chunk names: relative to the working directory, or to a folder above it,
    /// inside the working directory. A program started in the project's parent folder (as
    /// `flowpkg serve Demo` and `flowpkg run Demo --live` are, from the README) names
    /// `Demo/Sources/Main.lua` while the editor's folder is `Demo`.
    private func file(named chunk: String) -> String? {
        let exists = { (path: String) in FileManager.default.fileExists(atPath: path) }
        if chunk.hasPrefix("/") { return exists(chunk) ? URL(fileURLWithPath: chunk).standardizedFileURL.path : nil }
        let inside = URL(fileURLWithPath: workingDirectory + "/" + chunk).standardizedFileURL.path
        if exists(inside) { return inside }
        let root = URL(fileURLWithPath: workingDirectory).standardizedFileURL
        let prefix = root.path.hasSuffix("/") ? root.path : root.path + "/"
        var folder = root.deletingLastPathComponent()
        while true {
            let candidate = URL(fileURLWithPath: folder.path + "/" + chunk).standardizedFileURL.path
            if candidate.hasPrefix(prefix), exists(candidate) { return candidate }
            guard folder.path != "/", !folder.path.isEmpty else { return nil }
            folder = folder.deletingLastPathComponent()
        }
    }

    /// The chunk a source reference stands for.
    func key(forReference reference: Int) -> DebugSourceKey? {
        keys[reference]
    }

    /// Why a breakpoint cannot be set in a file: nil when it can.
    enum Refusal: Error, CustomStringConvertible {
        case noFile(String)
        case notLua(String)
        case outsideProject(String, root: String)

        var description: String {
            switch self {
            case .noFile(let path): return "\(path): no such file"
            case .notLua(let path): return "\(path): not a Lua file (.lua)"
            case .outsideProject(let path, let root):
                return "\(path) is outside the project \(root): no module of the program can come from it"
            }
        }
    }

    /// The source key for a file the editor set breakpoints in. With `projectRoot` (a project
    /// folder launched), a file outside it is refused.
    mutating func key(forPath rawPath: String, projectRoot: String?) throws(Refusal) -> DebugSourceKey {
        let path = URL(fileURLWithPath: rawPath).standardizedFileURL.path
        guard path.hasSuffix(".lua") else { throw .notLua(rawPath) }
        guard FileManager.default.fileExists(atPath: path) else { throw .noFile(rawPath) }
        if let projectRoot, !path.hasPrefix(projectRoot.hasSuffix("/") ? projectRoot : projectRoot + "/") {
            throw .outsideProject(rawPath, root: projectRoot)
        }
        let prefix = workingDirectory.hasSuffix("/") ? workingDirectory : workingDirectory + "/"
        let chunk = path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
        return DebugSourceKey(chunk: chunk, module: moduleName(ofFile: path))
    }

    /// The module a file is in the nearest project holding it.
    private mutating func moduleName(ofFile path: String) -> String? {
        var folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        while folder.path != "/" && !folder.path.isEmpty {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(ProjectFile.fileName).path) {
                let project = projects[folder.path] ?? ProjectLoader.load(from: folder).project
                projects[folder.path] = project
                return project?.modules.first { $0.file.standardizedFileURL.path == path }?.name.rawValue
            }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }
}
