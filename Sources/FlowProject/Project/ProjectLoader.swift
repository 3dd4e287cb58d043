import FlowDependencies
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

/// Reads a project folder into a `Project`: decodes flowpkg.json, then finds every module and
/// resource, reporting each problem (FP1xx, FP2xx) rather than stopping at the first.
public enum ProjectLoader {
    /// Loads the project in `directory`.
    ///
    /// `project` is nil only when the model cannot be built at all (no flowpkg.json, broken
    /// JSON, an unusable identifier or start module); problems in its content still leave a
    /// project, so a caller can report them and decide.
    ///
    /// A linked resource outside the project's repository is refused unless `allowsOutsideLinks`
    /// (the `--allow-outside-links` opt-in, by default `FLOWPKG_ALLOW_OUTSIDE_LINKS=1`).
    public static func load(from directory: URL, allowsOutsideLinks: Bool = OutsideLinks.allowedByEnvironment)
        -> (project: Project?, diagnostics: [Diagnostic])
    {
        let discovery = discover(in: directory, allowsOutsideLinks: allowsOutsideLinks)
        return (discovery.project, discovery.diagnostics)
    }

    /// Everything found, including modules and resources when the project itself is unusable,
    /// so validation can still check their content.
    struct Discovery {
        var project: Project?
        var modules: [ProjectModule] = []
        /// The path of each module's file, in the order of `modules`.
        var modulePaths: [String] = []
        var resources: [ProjectResource] = []
        var scripts: [ProjectScript] = []
        var diagnostics: [Diagnostic] = []
    }

    /// Finds everything: the project file, the modules and the resources, with their problems.
    static func discover(
        in directory: URL, identifierOverride: String? = nil, versionOverride: String? = nil,
        allowsOutsideLinks: Bool = OutsideLinks.allowedByEnvironment,
        includeDependencies: Bool = true, dependencyOptions: DependencyOptions = DependencyOptions()
    ) -> Discovery {
        var discovery = Discovery()
        let root = directory.standardizedFileURL
        let rootPath = root.path
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: rootPath, isDirectory: &isDirectory), isDirectory else {
            let exists = FileManager.default.fileExists(atPath: rootPath)
            discovery.diagnostics.append(
                Diagnostic(
                    severity: .error, code: .projectUnreadable,
                    message: exists
                        ? "'\(rootPath)' is not a folder" : "the project folder '\(rootPath)' does not exist",
                    file: rootPath,
                    hint: "give the folder that holds \(ProjectFile.fileName), or create one with 'flowpkg new'"))
            return discovery
        }
        let projectFilePath = rootPath + "/" + ProjectFile.fileName
        let bytes: [UInt8]
        do {
            bytes = try readProjectFile(projectFilePath)
        } catch {
            discovery.diagnostics.append(
                Diagnostic(
                    severity: .error, code: .projectUnreadable, message: error.message, file: projectFilePath,
                    hint: error.missing ? "create one with 'flowpkg new', or give the folder that holds it" : nil))
            return discovery
        }

        let decoder = ProjectFileDecoder(path: projectFilePath)
        let decoded = decoder.decode(bytes, identifierOverride: identifierOverride, versionOverride: versionOverride)
        discovery.diagnostics = decoded.diagnostics
        guard let projectFile = decoded.projectFile else { return discovery }

        var finder = ProjectContentFinder(
            root: rootPath, decoder: decoder, decoded: decoded, allowsOutsideLinks: allowsOutsideLinks)
        finder.findModules(projectFile.sources)
        finder.findResources(projectFile.resources)
        discovery.diagnostics += finder.diagnostics
        var origins: [Manifest.Dependency] = []
        if includeDependencies {
            origins = addDependencyModules(
                to: &finder, root: rootPath, file: projectFile, options: dependencyOptions,
                diagnostics: &discovery.diagnostics)
        }
        let order = finder.modules.indices.sorted { finder.modules[$0].name < finder.modules[$1].name }
        discovery.modules = order.map { finder.modules[$0] }
        discovery.modulePaths = order.map { finder.modulePaths[$0] }
        discovery.resources = finder.resources.sorted { $0.key < $1.key }
        discovery.scripts = finder.scripts.sorted { PackagePath.precedes($0.relativePath, $1.relativePath) }
        // What export would refuse (FP503), validate reports: the manifest is an entry too.
        let entries = discovery.modules.count + discovery.resources.count + discovery.scripts.count + 1
        let maximumEntries = PackageLimits.default.maxEntries
        if entries > maximumEntries {
            discovery.diagnostics.append(
                Diagnostic(
                    severity: .error, code: .packageLimit,
                    message: "the project has \(entries - 1) modules, scripts and resources; "
                        + "a package holds at most \(maximumEntries - 1)",
                    file: projectFilePath,
                    hint: "make a part of it a library of its own, or pack many small files into one"))
        }

        let startModule = checkStartModule(
            projectFile.startModule, modules: discovery.modules, decoder: decoder, decoded: decoded,
            diagnostics: &discovery.diagnostics)

        if decoded.isUsable, let identifier = try? PackageIdentifier(projectFile.identifier) {
            discovery.project = Project(
                root: root, projectFile: projectFile, identifier: identifier, startModule: startModule,
                modules: discovery.modules, resources: discovery.resources)
            discovery.project?.scripts = discovery.scripts
            discovery.project?.allowsOutsideLinks = allowsOutsideLinks
            discovery.project?.dependencies = origins
        }
        return discovery
    }

    /// Adds the modules of the locked dependencies to `finder`'s (a module the project has
    /// itself is reported, not added); returns where the dependencies come from.
    private static func addDependencyModules(
        to finder: inout ProjectContentFinder, root: String, file: ProjectFile, options: DependencyOptions,
        diagnostics: inout [Diagnostic]
    ) -> [Manifest.Dependency] {
        let found = LockedModules.find(root: root, file: file, options: options)
        diagnostics += found.diagnostics
        var providers: [String: String] = [:]
        for (module, path) in zip(finder.modules, finder.modulePaths) { providers[module.name.rawValue] = path }
        for module in found.modules {
            if let own = providers[module.name.rawValue] {
                diagnostics.append(
                    LockedModules.located(
                        DependencyError.moduleProvidedTwice(
                            module: module.name.rawValue, first: "the project's \(own)",
                            second: "the dependency '\(module.dependency ?? "")'"
                        ).diagnostic, file: own))
                continue
            }
            finder.modules.append(module)
            finder.modulePaths.append(module.file.path)
        }
        return found.origins
    }

    /// The start module's name, reported (FP209) when it is no module of the project.
    private static func checkStartModule(
        _ start: String?, modules: [ProjectModule], decoder: ProjectFileDecoder, decoded: ProjectFileDecoder.Result,
        diagnostics: inout [Diagnostic]
    ) -> ModuleName? {
        guard let start else { return nil }
        if !modules.contains(where: { $0.name.rawValue == start }) {
            let names = modules.map(\.name.rawValue)
            let hint =
                NameSuggestions.hint(for: start, in: names)
                ?? (names.isEmpty
                    ? "the project has no modules yet"
                    : "modules: " + names.prefix(5).joined(separator: ", ") + (names.count > 5 ? ", ..." : ""))
            diagnostics.append(
                decoder.diagnostic(
                    .error, .missingStartModule, "the start module '\(start)' is not a module of this project",
                    at: decoded.valuePositions["startModule"], hint: hint))
        }
        return try? ModuleName(start)
    }

    private struct ReadFailure: Error {
        var message: String
        var missing: Bool
    }

    /// Reads flowpkg.json, refusing anything that is not a regular file of sane size.
    private static func readProjectFile(_ path: String) throws(ReadFailure) -> [UInt8] {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let missing = errno == ENOENT
            throw ReadFailure(
                message: missing
                    ? "no \(ProjectFile.fileName) in this folder"
                    : "cannot read \(ProjectFile.fileName): \(String(cString: strerror(errno)))", missing: missing)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw ReadFailure(message: "\(ProjectFile.fileName) is not a regular file", missing: false)
        }
        guard info.st_size <= 4 << 20 else {
            throw ReadFailure(
                message: "\(ProjectFile.fileName) is larger than 4 MB; a project file is a few lines", missing: false)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ReadFailure(message: "cannot read \(ProjectFile.fileName)", missing: false)
        }
        return [UInt8](data)
    }
}
