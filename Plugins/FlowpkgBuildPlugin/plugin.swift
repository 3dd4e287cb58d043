import Foundation
import PackagePlugin

/// Exports the Lua project inside a target into that target's resources at build time.
///
/// A Lua project is a folder under the target's directory that holds a `flowpkg.json` (for
/// example `Sources/MyApp/Lua/flowpkg.json`); exclude it from the target's sources in
/// Package.swift. Each one becomes `<folder name>.luapkg` in the target's resource bundle,
/// where `LuaContext(package:bundle:)` finds it by identifier. The export runs
/// `FlowpkgBuildTool`, which validates and exports exactly as `flowpkg export` does (the same
/// library calls, the same package bytes) but links only FlowProject, so the app's build
/// compiles no CLI, templates or server for the host: an error stops the build and is
/// reported at its absolute `file:line:col`, and a clean project prints nothing. Every file of the project (and each resource it links from outside) is a
/// declared input, so a build with nothing changed does not export again.
@main
struct FlowpkgBuildPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        // Target.directoryURL needs tools version 6.1; this package declares 6.0.
        let directory = URL(fileURLWithPath: String(describing: target.directory))
        let projects = LuaProjectFolder.all(under: directory)
        guard !projects.isEmpty else {
            Diagnostics.error(
                """
                FlowpkgBuildPlugin found no Lua project in target '\(target.name)': put a folder holding \
                flowpkg.json under \(directory.path) and exclude it from the target's sources
                """)
            return []
        }
        let tool = try context.tool(named: "FlowpkgBuildTool").url
        return projects.map { project in
            let output = context.pluginWorkDirectoryURL.appendingPathComponent(project.packageFileName)
            return .buildCommand(
                displayName: "Exporting Lua project \(project.url.lastPathComponent) to \(project.packageFileName)",
                executable: tool,
                // Diagnostics name files by absolute path: the build log is read from no particular folder.
                arguments: [project.url.path, output.path],
                inputFiles: project.inputFiles(),
                outputFiles: [output]
            )
        }
    }
}

/// A folder holding `flowpkg.json`, and the files an export of it reads.
struct LuaProjectFolder {
    let url: URL

    /// The package it exports to, named after the folder.
    var packageFileName: String { url.lastPathComponent + ".luapkg" }

    /// Every project folder under `directory`, outermost only (a project inside another is
    /// part of that one's files), sorted by path.
    static func all(under directory: URL) -> [LuaProjectFolder] {
        var found: [LuaProjectFolder] = []
        func visit(_ folder: URL) {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("flowpkg.json").path) {
                found.append(LuaProjectFolder(url: folder))
                return
            }
            for child in subfolders(of: folder) { visit(child) }
        }
        visit(directory)
        return found.sorted { $0.url.path < $1.url.path }
    }

    /// flowpkg.json, every file and folder below the project (a folder's listing changes when a
    /// file is added or removed), and every file a `sources` or `resources` entry names outside
    /// the project (linked resources).
    func inputFiles() -> [URL] {
        var inputs = Self.tree(at: url)
        for entry in linkedPaths() {
            let target = URL(fileURLWithPath: entry, relativeTo: url).standardizedFileURL
            if !target.path.hasPrefix(url.standardizedFileURL.path + "/") { inputs += Self.tree(at: target) }
        }
        var seen = Set<String>()
        return inputs.filter { seen.insert($0.path).inserted }.sorted { $0.path < $1.path }
    }

    /// The paths flowpkg.json's `sources` and `resources` entries name (strings, or objects'
    /// `path`); none when the file does not parse (export then reports why).
    private func linkedPaths() -> [String] {
        guard let data = try? Data(contentsOf: url.appendingPathComponent("flowpkg.json")),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [] }
        var paths: [String] = []
        for key in ["sources", "resources"] {
            for entry in object[key] as? [Any] ?? [] {
                if let path = entry as? String {
                    paths.append(path)
                } else if let path = (entry as? [String: Any])?["path"] as? String {
                    paths.append(path)
                }
            }
        }
        return paths
    }

    /// `root` and, when it is a folder, every file and folder below it except hidden ones.
    private static func tree(at root: URL) -> [URL] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { return [root] }
        var urls = [root]
        guard
            let walker = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.isRegularFileKey, .isDirectoryKey], options: [.skipsHiddenFiles]
            )
        else { return urls }
        for case let url as URL in walker { urls.append(url) }
        return urls
    }

    private static func subfolders(of folder: URL) -> [URL] {
        let children =
            (try? FileManager.default.contentsOfDirectory(
                at: folder, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])) ?? []
        return children.filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
    }
}
