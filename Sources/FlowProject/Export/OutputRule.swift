import FlowDiagnostics
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

/// What export may write to: never a folder, and nothing of the user's unless `--force`.
///
/// An existing file is replaced only when it is a package already (a zip whose first entry is
/// `manifest.json`: its content, not its extension, decides), and no package is written among
/// the project's own files (its sources and resource folders, linked resources, flowpkg.json),
/// where the next export would read it back in. FP501 for a folder, FP506 for the rest.
enum OutputRule {
    static func problem(writing output: URL, for project: Project, force: Bool) -> Diagnostic? {
        let manager = FileManager.default
        var isDirectory = false
        let exists = manager.fileExists(atPath: output.path, isDirectory: &isDirectory)
        if exists, isDirectory {
            return Diagnostic(
                severity: .error, code: .outputUnwritable, message: "cannot write the package: it is a folder",
                file: output.path,
                hint:
                    "-o takes the package's file name, e.g. -o \(displayed(output.appendingPathComponent(defaultName(project)).path))"
            )
        }
        guard !force else { return nil }
        if let place = projectPlace(holding: output, in: project) {
            let message: String
            switch place {
            case .file(let words):
                message = "refusing to replace \(words) of the project: export never overwrites the project's own files"
            case .folder(let words):
                message =
                    exists
                    ? "refusing to replace a file in the project's \(words): export never overwrites the project's own files"
                    : "refusing to write the package into the project's \(words): the next export would read it back in"
            }
            return Diagnostic(
                severity: .error, code: .outputWouldReplace, message: message, file: output.path,
                hint: "write the package elsewhere with -o, or pass --force if you really mean it")
        }
        if exists, !PackageFile.startsWithManifest(at: output) {
            return Diagnostic(
                severity: .error, code: .outputWouldReplace,
                message: "refusing to replace a file that is not a flowpkg package "
                    + "(a .luapkg is a zip whose first entry is manifest.json)",
                file: output.path, hint: "choose another file with -o, or pass --force to replace it")
        }
        return nil
    }

    static func defaultName(_ project: Project) -> String {
        "\(project.projectFile.name)-\(project.projectFile.version).luapkg"
    }

    private enum Place {
        /// One of the project's files, in words (`module Main`, `flowpkg.json`).
        case file(String)
        /// A folder of the project's content, in words (`sources folder Sources`).
        case folder(String)
    }

    /// Which of the project's files `output` is, or which of its content folders it lies in.
    private static func projectPlace(holding output: URL, in project: Project) -> Place? {
        let target = canonical(output)
        let root = canonical(project.root)
        let file = project.projectFile
        var folders: [(path: String, words: String)] = []
        for source in file.sources {
            // Sources "." holds only .lua files; a package beside flowpkg.json is not one of them.
            let path = canonical(project.root.appendingPathComponent(source))
            if path != root { folders.append((path, "sources folder \(source)")) }
        }
        var files: [(path: String, words: String)] = [
            (canonical(project.root.appendingPathComponent(ProjectFile.fileName)), ProjectFile.fileName)
        ]
        for entry in file.resources {
            switch entry {
            case .folder(let path):
                folders.append((canonical(project.root.appendingPathComponent(path)), "resources folder \(path)"))
            case .linked(let path, _):
                let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : project.root.appendingPathComponent(path)
                var isDirectory = false
                if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory {
                    folders.append((canonical(url), "linked resources folder \(path)"))
                } else {
                    files.append((canonical(url), "the linked resource \(path)"))
                }
            }
        }
        files += project.modules.map { (canonical($0.file), "module \($0.name)") }
        files += project.resources.map { (canonical($0.file), "resource \($0.key)") }
        if let hit = files.first(where: { $0.path == target }) { return .file(hit.words) }
        if let hit = folders.first(where: { target == $0.path || target.hasPrefix($0.path + "/") }) {
            return .folder(hit.words)
        }
        return nil
    }

    /// The path with `.`/`..` and symbolic links resolved, also for a file that does not exist
    /// yet (its folder is resolved), so two spellings of one place compare equal.
    private static func canonical(_ url: URL) -> String {
        let standardized = url.standardizedFileURL
        let resolved = standardized.resolvingSymlinksInPath()
        if FileManager.default.fileExists(atPath: resolved.path) { return resolved.path }
        let parent = standardized.deletingLastPathComponent().resolvingSymlinksInPath()
        return parent.appendingPathComponent(standardized.lastPathComponent).path
    }

    private static func displayed(_ path: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        return path.hasPrefix(cwd + "/") ? String(path.dropFirst(cwd.count + 1)) : path
    }
}
