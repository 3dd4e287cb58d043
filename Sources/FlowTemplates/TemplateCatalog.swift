import EmbeddedTemplates
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport

/// The templates flowpkg knows by name, compiled into the binary from `Templates/`.
public struct TemplateCatalog: Sendable {
    public var templates: [Template]

    public init(templates: [Template]) {
        self.templates = templates.sorted { $0.name < $1.name }
    }

    /// The bundled templates. A broken bundled template is a build defect that the tests catch,
    /// so it is reported by throwing rather than skipped.
    public static func bundled() throws(TemplateError) -> TemplateCatalog {
        var grouped: [String: [Template.File]] = [:]
        for file in EmbeddedTemplates.files {
            guard let slash = file.path.firstIndex(of: "/") else { continue }
            let name = String(file.path[..<slash])
            grouped[name, default: []].append(
                Template.File(
                    path: String(file.path[file.path.index(after: slash)...]),
                    bytes: file.bytes, isExecutable: file.isExecutable))
        }
        var templates: [Template] = []
        for (name, files) in grouped where files.contains(where: { $0.path == Template.manifestFileName }) {
            templates.append(try Template.from(name: name, origin: "Templates/\(name)", files: files))
        }
        return TemplateCatalog(templates: templates)
    }

    public var names: [String] { templates.map(\.name) }

    /// The template `--template` names: a bundled name, or a path to a template folder. A value
    /// with a `/` is always a path, so `./console-app` reaches a local folder of that name.
    public func template(named nameOrPath: String, relativeTo directory: URL) throws(TemplateError) -> Template {
        if !nameOrPath.contains("/"), let bundled = templates.first(where: { $0.name == nameOrPath }) {
            return bundled
        }
        let url = URL(fileURLWithPath: nameOrPath, relativeTo: directory)
        var isDirectory = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory {
            var shown = nameOrPath
            while shown.count > 1 && shown.hasSuffix("/") { shown.removeLast() }
            return try Template.load(from: url, origin: shown)
        }
        throw .unknownTemplate(name: nameOrPath, known: names)
    }
}
