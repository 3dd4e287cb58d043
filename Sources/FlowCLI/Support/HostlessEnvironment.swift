import FlowAnalysis
import FlowProject
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A project written for an app host (`"environment": "codeflow-ios"`: `objc`, `class`, the
/// UIKit modules) that `flowpkg run` cannot host: said plainly, with the page to read, instead
/// of Lua's "module 'UIKit.UIView' not found".
enum HostlessEnvironment {
    /// Why the project at `root` cannot run here, or nil when it can (or may: a codeflow-ios
    /// project whose start module uses none of the host's API runs).
    static func problem(projectAt root: URL) -> String? {
        guard let environment = environmentName(projectAt: root), environment != Environment.lua.name else {
            return nil
        }
        guard let start = startModuleText(projectAt: root), usesHost(start) else { return nil }
        return explanation(environment: environment, root: root)
    }

    /// The plain message for a start module's error, when the error is the missing host.
    static func problem(environment: String, root: URL, error: String) -> String? {
        guard environment != Environment.lua.name, usesHost(error) else { return nil }
        return explanation(environment: environment, root: root)
    }

    static func explanation(environment: String, root: URL) -> String {
        let host = root.appendingPathComponent("Host/README.md")
        let guide =
            FileManager.default.fileExists(atPath: host.path)
            ? "Host/README.md in the project and " : ""
        return "the project's environment is \(environment): its code needs the app host (objc, class, "
            + "property and the iOS SDK modules), and flowpkg run has none. Run it in its app, which loads "
            + "the package and follows flowpkg serve: see \(guide)the article \"Embedding a package in an app\" "
            + "(FlowRuntime's documentation). validate and export check it here."
    }

    /// Whether `text` (code, or an error) reaches for the host: an SDK module or `objc`/`class`.
    static func usesHost(_ text: String) -> Bool {
        // `firstRange(of:)`, the standard library's: `contains` with a string argument is
        // Foundation's here (ArgumentParser imports it), which .ci/release-build's check refuses.
        for framework in Environment.appleFrameworks
        where text.firstRange(of: "\"\(framework).") != nil || text.firstRange(of: "'\(framework).") != nil {
            return true
        }
        return ["objc.", "class.createClass", "global 'objc'", "global 'class'", "global 'property'"]
            .contains { text.firstRange(of: $0) != nil }
    }

    private static func environmentName(projectAt root: URL) -> String? {
        let (project, _) = ProjectLoader.load(from: root)
        return project?.projectFile.environment
    }

    private static func startModuleText(projectAt root: URL) -> String? {
        let (project, _) = ProjectLoader.load(from: root)
        guard let project, let start = project.startModule,
            let module = project.modules.first(where: { $0.name == start }),
            let data = FileManager.default.contents(atPath: module.file.path)
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
