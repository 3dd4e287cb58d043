import Foundation
import PackagePlugin

/// Compiles the package's `Templates/` folder into `EmbeddedTemplates`, and a target's own
/// `Embedded/` folder into any other target it is applied to (EmbeddedDefinitions' LuaCATS files,
/// FlowTesting's Lua runner), by running `TemplateEmbedder` before the target builds. Each template file is a declared input, so an
/// edited, added or removed template file regenerates the source on the next build.
@main
struct EmbedTemplates: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let package = context.package.directoryURL
        let templates =
            switch target.name {
            case "EmbeddedTemplates": package.appendingPathComponent("Templates", isDirectory: true)
            default: package.appendingPathComponent("Sources/\(target.name)/Embedded", isDirectory: true)
            }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedTemplateFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(templates.lastPathComponent) into \(target.name)",
                executable: try context.tool(named: "TemplateEmbedder").url,
                arguments: [templates.path, output.path],
                inputFiles: inputFiles(under: templates),
                outputFiles: [output]
            )
        ]
    }

    /// Every file below `folder`, so the build system reruns the embedder when one changes.
    private func inputFiles(under folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        var files: [URL] = []
        for case let url as URL in walker {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                files.append(url)
            }
        }
        // Directories too: adding or removing a file changes its folder's listing.
        return [folder] + files.sorted { $0.path < $1.path }
    }
}
