import FlowDiagnostics
import FlowJSON
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

/// Finds a project's modules and resources from its `sources` and `resources` entries and
/// reports the problems of each (FP109, FP110, FP201–FP208, FP210).
struct ProjectContentFinder {
    let root: String
    let decoder: ProjectFileDecoder
    let decoded: ProjectFileDecoder.Result
    /// The canonical project folder: links must stay inside it (linked entries aside).
    let realRoot: String
    /// Where linked files may lie.
    let links: LinkRule

    var modules: [ProjectModule] = []
    /// The path of each module's file as found (`modules[i].file.path`, without asking the URL).
    var modulePaths: [String] = []
    var resources: [ProjectResource] = []
    var scripts: [ProjectScript] = []
    var diagnostics: [Diagnostic] = []

    init(
        root: String, decoder: ProjectFileDecoder, decoded: ProjectFileDecoder.Result, allowsOutsideLinks: Bool = false
    ) {
        self.root = root
        self.decoder = decoder
        self.decoded = decoded
        self.realRoot = FileTree.realPath(root) ?? root
        self.links = LinkRule(projectRoot: realRoot, allowsOutside: allowsOutsideLinks)
    }

    /// Whether flowpkg.json's `exclude` leaves out the file at `path` (inside the project folder).
    func isExcluded(_ path: String) -> Bool {
        guard let file = decoded.projectFile, !file.exclude.isEmpty, path.hasPrefix(root + "/") else { return false }
        return file.isExcluded(String(path.dropFirst(root.count + 1)))
    }

    /// `path` relative to the project folder, for messages; absolute when outside it.
    func shown(_ path: String) -> String {
        path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }

    // MARK: Modules

    mutating func findModules(_ sources: [String]) {
        let isDefault = decoded.valuePositions["sources"] == nil
        // Named first, checked for duplicates second: whether `foo/init.lua` is module `foo` or
        // `foo.init` depends on whether a `foo.lua` exists in any sources folder.
        var found: [(entry: FileTree.Entry, name: ModuleName, isInit: Bool)] = []
        for (index, source) in sources.enumerated() {
            let position = index < decoded.sourcePositions.count ? decoded.sourcePositions[index] : nil
            guard let folder = folder(source, key: "sources", at: position, isDefault: isDefault) else { continue }
            let tree = FileTree(walking: folder, allowedRoot: realRoot)
            report(tree.problems)
            for entry in tree.entries where entry.relativePath.hasSuffix(".lua") && !isExcluded(entry.path) {
                guard entry.isRegularFile else {
                    diagnostics.append(
                        Diagnostic(
                            severity: .error, code: .unreadableFile,
                            message: "'\(shown(entry.path))' is not a regular file and cannot be read as a module",
                            file: entry.path, hint: "remove it, or rename it so it does not end in .lua"))
                    continue
                }
                guard let (name, isInit) = moduleName(for: entry) else { continue }
                found.append((entry, name, isInit))
            }
        }
        var plainNames: Set<String> = []
        for item in found where !item.isInit { plainNames.insert(item.name.rawValue) }
        var byName: [String: ProjectModule] = [:]
        var byLowercased: [String: ProjectModule] = [:]
        for (entry, plainName, isInit) in found {
            // Stock Lua's searchers (`?.lua` before `?/init.lua`): `require "foo"` finds
            // foo.lua first, so beside it foo/init.lua is reached only as "foo.init".
            var name = plainName
            if isInit, plainNames.contains(plainName.rawValue),
                let initName = try? ModuleName(plainName.rawValue + ".init")
            {
                name = initName
            }
            // isDirectory given: otherwise URL asks the file system, once more per module.
            let module = ProjectModule(
                name: name, file: URL(fileURLWithPath: entry.path, isDirectory: false),
                relativePath: entry.relativePath)
            if let first = byName[name.rawValue] {
                diagnostics.append(
                    Diagnostic(
                        severity: .error, code: .duplicateModule,
                        message: "'\(shown(entry.path))' and '\(shown(first.file.path))' are both module '\(name)'",
                        file: entry.path, hint: "rename or remove one of them"))
                continue
            }
            let lowered = name.rawValue.lowercased()
            if let other = byLowercased[lowered] {
                diagnostics.append(
                    Diagnostic(
                        severity: .error, code: .modulesDifferOnlyByCase,
                        message: "module '\(name)' differs from module '\(other.name)' only by case",
                        file: entry.path,
                        hint: "they collide on case-insensitive file systems (macOS, Windows): rename one"))
                continue
            }
            byName[name.rawValue] = module
            byLowercased[lowered] = module
            modules.append(module)
            modulePaths.append(entry.path)
        }
    }

    /// `Foo/Bar.lua` is `Foo.Bar` and `Foo/init.lua` is `Foo` (`isInit`); nil (with FP201) when
    /// that is no module name.
    private mutating func moduleName(for entry: FileTree.Entry) -> (name: ModuleName, isInit: Bool)? {
        // On UTF-8 bytes: '/' and '.' are ASCII, and require splits bytes, not characters.
        var parts = entry.relativePath.utf8.dropLast(4).split(
            separator: UInt8(ascii: "/"), omittingEmptySubsequences: false
        )
        .map { Substring($0) }
        var isInit = false
        if parts.count > 1, parts.last == "init" {
            parts.removeLast()
            isInit = true
        }
        if parts.contains(where: { $0.utf8.contains(UInt8(ascii: ".")) }) {
            // No require reaches it (require turns dots into folders): a script, loaded by path
            // as hosts load `password.lib.lua` or `atl01.wmf/scripting/init.lua`.
            if PackagePath.problem(in: PackagePath.scriptPath(relativePath: entry.relativePath)) == nil {
                scripts.append(
                    ProjectScript(
                        relativePath: entry.relativePath, file: URL(fileURLWithPath: entry.path, isDirectory: false)))
                return nil
            }
            diagnostics.append(
                Diagnostic(
                    severity: .error, code: .invalidModuleName,
                    message:
                        "'\(shown(entry.path))' can be neither a module nor a script: its path is not valid in a package",
                    file: entry.path, hint: "rename the file or folder"))
            return nil
        }
        let name = parts.joined(separator: ".")
        if let problem = ModuleName.problem(in: name) {
            diagnostics.append(
                Diagnostic(
                    severity: .error, code: .invalidModuleName,
                    message: "'\(shown(entry.path))' cannot be a module: \(problem)",
                    file: entry.path, hint: "rename the file or folder: require turns a module name into a file path"))
            return nil
        }
        return (try? ModuleName(name)).map { ($0, isInit) }
    }

    // MARK: Resources

    mutating func findResources(_ entries: [ProjectFile.ResourceEntry]) {
        let isDefault = decoded.valuePositions["resources"] == nil
        var byKey: [ResourceKey: (resource: ProjectResource, origin: String)] = [:]
        var byLowercased: [String: ResourceKey] = [:]
        for (index, entry) in entries.enumerated() {
            let position = index < decoded.resourcePositions.count ? decoded.resourcePositions[index] : nil
            var found: [(key: ResourceKey, path: String, isLinked: Bool)] = []
            switch entry {
            case .folder(let name):
                guard let folder = folder(name, key: "resources", at: position, isDefault: isDefault) else { continue }
                found = resourceFiles(under: folder, prefix: nil, allowedRoot: realRoot, isLinked: false)
            case .linked(let path, let name):
                found = linkedResources(path: path, name: name, at: position)
            }
            for (key, path, isLinked) in found {
                let resource = ProjectResource(
                    key: key, file: URL(fileURLWithPath: path, isDirectory: false), isLinked: isLinked)
                if let first = byKey[key] {
                    diagnostics.append(
                        Diagnostic(
                            severity: .error, code: .duplicateResource,
                            message: "resource '\(key)' is given twice: by '\(shown(path))' and by '\(first.origin)'",
                            file: path, hint: "rename or remove one of them"))
                    continue
                }
                let lowered = key.fileName.lowercased()
                if let other = byLowercased[lowered] {
                    diagnostics.append(
                        Diagnostic(
                            severity: .error, code: .resourcesDifferOnlyByCase,
                            message: "resource '\(key)' differs from resource '\(other)' only by case",
                            file: path,
                            hint: "they collide on case-insensitive file systems (macOS, Windows): rename one"))
                    continue
                }
                byKey[key] = (resource, shown(path))
                byLowercased[lowered] = key
                resources.append(resource)
            }
        }
    }

    private mutating func linkedResources(path: String, name: String?, at position: JSONPosition?)
        -> [(key: ResourceKey, path: String, isLinked: Bool)]
    {
        let target = path.hasPrefix("/") ? path : root + "/" + path
        var isDirectory = false
        guard !path.isEmpty, FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory) else {
            diagnostics.append(
                decoder.diagnostic(
                    .error, .missingLinkedResource, "the linked resource '\(path)' does not exist", at: position,
                    hint: "paths are relative to the project folder; fix the path or remove the entry"))
            return []
        }
        // Checked before anything is read or walked: `/` would list the whole machine, and
        // `/proc/self/environ` would package the CI job's secrets.
        if let refusal = links.refusal(of: FileTree.realPath(target) ?? target) {
            let (message, hint) = links.explain(refusal, link: path, what: "the linked resource")
            diagnostics.append(
                decoder.diagnostic(
                    .error, refusal.isAllowedByOptIn ? .linkOutsideRepository : .linkRefused, message, at: position,
                    hint: hint))
            return []
        }
        let ownName = String(target.split(separator: "/").last ?? "")
        if let name, let problem = ResourceKey.problem(name: name, type: "") {
            diagnostics.append(
                decoder.diagnostic(
                    .error, .invalidResourceName, "the resource name '\(name)' is not valid: \(problem)", at: position))
            return []
        }
        if isDirectory {
            let prefix = name ?? ownName
            return resourceFiles(
                under: target, prefix: prefix, allowedRoot: FileTree.realPath(target) ?? target, isLinked: true)
        }
        var info = stat()
        guard stat(target, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            diagnostics.append(
                decoder.diagnostic(
                    .error, .unreadableFile, "the linked resource '\(path)' is not a regular file", at: position)
            )
            return []
        }
        do {
            let key: ResourceKey
            if let name {
                let type = try ResourceKey(relativePath: ownName).type
                key = try ResourceKey(name: name, type: type)
            } else {
                key = try ResourceKey(relativePath: ownName)
            }
            return [(key, target, true)]
        } catch {
            diagnostics.append(
                decoder.diagnostic(
                    .error, .invalidResourceName,
                    "the linked resource '\(path)' has no valid name: \(error.description)",
                    at: position, hint: "give it a \"name\""))
            return []
        }
    }

    private mutating func resourceFiles(under folder: String, prefix: String?, allowedRoot: String, isLinked: Bool)
        -> [(key: ResourceKey, path: String, isLinked: Bool)]
    {
        let tree = FileTree(walking: folder, allowedRoot: allowedRoot)
        report(tree.problems)
        var found: [(key: ResourceKey, path: String, isLinked: Bool)] = []
        for entry in tree.entries where !isExcluded(entry.path) {
            guard entry.isRegularFile else {
                diagnostics.append(
                    Diagnostic(
                        severity: .error, code: .unreadableFile,
                        message: "'\(shown(entry.path))' is not a regular file and cannot be a resource",
                        file: entry.path, hint: "remove it from the resources folder"))
                continue
            }
            do {
                let relative = prefix.map { $0 + "/" + entry.relativePath } ?? entry.relativePath
                found.append((try ResourceKey(relativePath: relative), entry.path, isLinked))
            } catch {
                diagnostics.append(
                    Diagnostic(
                        severity: .error, code: .invalidResourceName,
                        message: "'\(shown(entry.path))' cannot be a resource: \(error.description)",
                        file: entry.path, hint: "rename the file"))
            }
        }
        return found
    }

    // MARK: Folders and links

    /// The absolute path of a project-relative folder entry, or nil after reporting why it is unusable.
    private mutating func folder(_ entry: String, key: String, at position: JSONPosition?, isDefault: Bool) -> String? {
        if entry.isEmpty || entry.hasPrefix("/") {
            diagnostics.append(
                decoder.diagnostic(
                    .error, .folderOutsideProject,
                    "the \(key) folder '\(entry)' must be a path relative to the project folder",
                    at: position))
            return nil
        }
        let path = root + "/" + entry.split(separator: "/").joined(separator: "/")
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory else {
            let exists = FileManager.default.fileExists(atPath: path)
            if isDefault && !exists {
                // Without a "resources" key a missing Resources folder just means no resources;
                // a missing default Sources folder means no modules, which is worth saying.
                if key == "sources" {
                    diagnostics.append(
                        Diagnostic(
                            severity: .warning, code: .missingFolder,
                            message: "there is no Sources folder: the project has no modules", file: path,
                            hint: "create Sources/ with your .lua files, or list your folders in \"sources\""))
                }
                return nil
            }
            diagnostics.append(
                decoder.diagnostic(
                    .error, .missingFolder,
                    exists
                        ? "the \(key) entry '\(entry)' is not a folder" : "the \(key) folder '\(entry)' does not exist",
                    at: position ?? decoded.rootPosition,
                    hint: key == "resources" && exists
                        ? "link a single file with {\"path\": \"\(entry)\", \"name\": ...}" : nil))
            return nil
        }
        guard let real = FileTree.realPath(path), real == realRoot || real.hasPrefix(realRoot + "/") else {
            diagnostics.append(
                decoder.diagnostic(
                    .error, .folderOutsideProject, "the \(key) folder '\(entry)' is outside the project folder",
                    at: position,
                    hint: key == "resources"
                        ? "link outside files with {\"path\": ..., \"name\": ...}" : "move the modules into the project"
                ))
            return nil
        }
        return path
    }

    private mutating func report(_ problems: [FileTree.Problem]) {
        for problem in problems {
            let message: String
            var hint: String?
            var code: DiagnosticCode = .linkEscapesProject
            switch problem.kind {
            case .linkEscapes(let target):
                message = "the symbolic link '\(shown(problem.path))' points outside the project, to '\(target)'"
                hint = "copy the file into the project, or link it as a resource with {\"path\": ..., \"name\": ...}"
            case .brokenLink:
                message = "the symbolic link '\(shown(problem.path))' points to nothing"
                hint = "fix or remove the link"
            case .linkLoop:
                message = "the symbolic link '\(shown(problem.path))' loops back on itself"
                hint = "fix or remove the link"
            case .unreadableFolder(let reason):
                code = .unreadableFile
                message = "cannot read the folder '\(shown(problem.path))': \(reason)"
            }
            diagnostics.append(
                Diagnostic(severity: .error, code: code, message: message, file: problem.path, hint: hint))
        }
    }
}
