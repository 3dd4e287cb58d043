import FlowJSON
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

/// A new project, fully worked out before anything is written: the template, the checked
/// values, and every file rendered. `flowpkg new` prints it (`--dry-run`) or writes it.
public struct NewProject: Sendable {
    /// What to run after creating a project, in order.
    public enum NextStep: String, Sendable {
        case validate, run, export
    }

    public var template: Template
    public var destination: URL
    public var values: TemplateValues
    public var files: [RenderedFile]

    /// Works out the project `template` makes at `destination` with the user's `given` values,
    /// checking the values, the template and the destination; nothing is written.
    public static func plan(
        template: Template, destination: URL,
        given: [String: String]
    ) throws(TemplateError) -> NewProject {
        let values = try TemplateValues.resolve(template: template, destination: destination, given: given)
        let files = try TemplateRenderer.render(template, context: values.renderingContext(for: template))
        try ProjectWriter.checkDestination(destination)
        return NewProject(template: template, destination: destination, values: values, files: files)
    }

    /// Writes the project atomically; see `ProjectWriter`.
    public func write() throws(TemplateError) {
        try ProjectWriter.write(files, to: destination)
    }

    /// What to run next, read from the project file the template wrote: `run` when the project
    /// has a start module and runs on plain Lua, `export` otherwise.
    public var nextSteps: [NextStep] {
        guard let file = files.first(where: { $0.path == "flowpkg.json" }) else { return [] }
        guard let root = try? JSONParser.parse(file.bytes), case .object = root.value else { return [.validate] }
        var environment = "lua"
        if case .string(let text)? = root["environment"]?.value { environment = text }
        var hasStartModule = false
        if case .string? = root["startModule"]?.value { hasStartModule = true }
        let runnable = hasStartModule && environment == "lua"
        return [.validate, runnable ? .run : .export]
    }
}
