import FlowDiagnostics
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

/// A project template: a folder with a `template.json` and files rendered with Mustache,
/// bundled into flowpkg or read from a folder the user names.
public struct Template: Sendable {
    /// One file of the template, by its path inside the template folder (`Sources/{{startModulePath}}.lua`).
    public struct File: Sendable, Equatable {
        public var path: String
        public var bytes: [UInt8]
        /// A script: the new project's copy is executable too.
        public var isExecutable: Bool

        public init(path: String, bytes: [UInt8], isExecutable: Bool = false) {
            self.path = path
            self.bytes = bytes
            self.isExecutable = isExecutable
        }
    }

    /// The name `--template` takes: the folder's name.
    public var name: String
    public var manifest: TemplateManifest
    /// Every file but `template.json`, sorted by path.
    public var files: [File]
    /// Where the template came from, as messages should name it: the folder as the user gave it,
    /// or `Templates/NAME` for a bundled one.
    public var origin: String

    public init(name: String, manifest: TemplateManifest, files: [File], origin: String? = nil) {
        self.name = name
        self.origin = origin ?? "Templates/\(name)"
        self.manifest = manifest
        self.files = files.sorted { Array($0.path.utf8).lexicographicallyPrecedes(Array($1.path.utf8)) }
    }

    /// Every variable the template can be given: `name` and `identifier`, then its own.
    public var variables: [TemplateVariable] { TemplateVariable.builtIn + manifest.variables }

    /// The file that describes a template; it is not copied into new projects.
    public static let manifestFileName = "template.json"

    /// Builds a template from its files: `template.json` among them gives the manifest.
    /// `origin` names the template in messages (a folder path or `Templates/NAME`).
    public static func from(name: String, origin: String, files: [File]) throws(TemplateError) -> Template {
        guard let manifestFile = files.first(where: { $0.path == manifestFileName }) else {
            throw .invalidTemplate([
                Diagnostic(
                    severity: .error, code: .invalidTemplateManifest,
                    message: "\(origin) has no template.json",
                    file: origin, hint: "a template folder holds a template.json describing it and its variables")
            ])
        }
        let manifest = try TemplateManifest.parse(Data(manifestFile.bytes), file: "\(origin)/\(manifestFileName)").get()
        return Template(
            name: name, manifest: manifest, files: files.filter { $0.path != manifestFileName }, origin: origin)
    }

    /// Reads a template folder from disk; Finder's `.DS_Store` files are skipped. `origin` is
    /// how messages name the folder (by default its full path).
    public static func load(from folder: URL, origin: String? = nil) throws(TemplateError) -> Template {
        let origin = origin ?? folder.path
        let manager = FileManager.default
        var isDirectory = false
        guard manager.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory else {
            throw .invalidTemplate([
                Diagnostic(
                    severity: .error, code: .invalidTemplateManifest,
                    message: "\(origin) is not a template folder", file: origin)
            ])
        }
        var files: [File] = []
        var problems: [Diagnostic] = []
        let base = folder.standardizedFileURL.resolvingSymlinksInPath().path
        for relative in manager.walk(base) {
            let url = URL(fileURLWithPath: base + "/" + relative)
            guard url.lastPathComponent != ".DS_Store" else { continue }
            let type = (try? manager.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType
            if type == .typeDirectory { continue }
            guard type == .typeRegular, let data = manager.contents(atPath: url.path) else {
                problems.append(
                    Diagnostic(
                        severity: .error, code: .invalidTemplateFile,
                        message: "cannot read \(relative) as a regular file",
                        file: "\(origin)/\(relative)"))
                continue
            }
            let permissions =
                (try? manager.attributesOfItem(atPath: url.path)).flatMap(FileManager.posixPermissions(in:)) ?? 0
            files.append(File(path: relative, bytes: [UInt8](data), isExecutable: permissions & 0o111 != 0))
        }
        if !problems.isEmpty { throw .invalidTemplate(problems) }
        return try from(name: folder.standardizedFileURL.lastPathComponent, origin: origin, files: files)
    }
}
