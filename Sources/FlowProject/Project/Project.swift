import FlowPackage
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport

/// One Lua module of a project: `Sources/Foo/Bar.lua` is module `Foo.Bar`.
public struct ProjectModule: Sendable, Equatable {
    public var name: ModuleName
    /// The file as found under the project (not resolved through symbolic links).
    public var file: URL
    /// The path relative to its source root, e.g. "Foo/Bar.lua", "Foo/init.lua": the chunk name
    /// Lua errors show and the package path under `modules/`.
    public var relativePath: String
    /// The dependency it comes from (flowpkg.json's `dependencies`), nil for the project's own.
    public var dependency: String? = nil

    public init(name: ModuleName, file: URL, relativePath: String, dependency: String? = nil) {
        self.name = name
        self.file = file
        self.relativePath = relativePath
        self.dependency = dependency
    }
}

/// One script of a project: a Lua file whose name has a dot (`muc/password.lib.lua`,
/// `atl01.wmf/scripting/init.lua`), which no `require` reaches, so a program loads it by path
/// (`dofile`, `loadfile`). Validated like a module; packaged under `scripts/`.
public struct ProjectScript: Sendable, Equatable {
    /// The path relative to its source root: the path a program loads it by, and its package
    /// path under `scripts/`.
    public var relativePath: String
    public var file: URL

    public init(relativePath: String, file: URL) {
        self.relativePath = relativePath
        self.file = file
    }

    /// The script named in `require`'s words (`muc.password.lib`), for the analysis' messages:
    /// no `require` finds it by that name. Nil when the path makes no module name.
    public var analysisName: ModuleName? {
        try? ModuleName(String(relativePath.dropLast(4)).replacingAll("/", with: "."))
    }
}

/// One resource of a project: `Resources/img/logo.png` is key `img/logo` + `png`.
public struct ProjectResource: Sendable, Equatable {
    public var key: ResourceKey
    public var file: URL
    /// True when it comes from a linked entry (`{"path": ..., "name": ...}`), possibly outside the project.
    public var isLinked: Bool

    public init(key: ResourceKey, file: URL, isLinked: Bool) {
        self.key = key
        self.file = file
        self.isLinked = isLinked
    }
}

/// What a project holds, discovered once and handed to validation, export and the runtime.
public struct Project: Sendable {
    /// The project folder (the one holding flowpkg.json).
    public var root: URL
    public var projectFile: ProjectFile
    public var identifier: PackageIdentifier
    public var startModule: ModuleName?
    /// Sorted by module name.
    public var modules: [ProjectModule]
    /// Sorted by resource key.
    public var resources: [ProjectResource]
    /// Sorted by path.
    public var scripts: [ProjectScript] = []
    /// Whether files it links to may lie outside its repository (`--allow-outside-links`).
    public var allowsOutsideLinks = false
    /// The dependencies whose modules are among `modules`, as the manifest records them.
    public var dependencies: [Manifest.Dependency] = []

    public init(
        root: URL, projectFile: ProjectFile, identifier: PackageIdentifier, startModule: ModuleName?,
        modules: [ProjectModule], resources: [ProjectResource]
    ) {
        self.root = root
        self.projectFile = projectFile
        self.identifier = identifier
        self.startModule = startModule
        self.modules = modules
        self.resources = resources
    }

    /// The module `require(name)` finds, if the project has it: as stock Lua's searchers,
    /// `foo.init` also finds `foo/init.lua` when that file is module `foo`.
    public func module(named name: String) -> ProjectModule? {
        if let module = module(exactly: name) { return module }
        guard let parent = (try? ModuleName(name))?.initParent, let module = module(exactly: parent.rawValue),
            module.relativePath == parent.initFilePath
        else { return nil }
        return module
    }

    /// Every name `require` finds a project module by: each module's name, and `foo.init` for a
    /// module `foo` stored as `foo/init.lua`.
    public var requireNames: Set<String> {
        var names = Set(modules.map(\.name.rawValue))
        for module in modules where module.relativePath == module.name.initFilePath {
            names.insert(module.name.rawValue + ".init")
        }
        return names
    }

    private func module(exactly name: String) -> ProjectModule? {
        var low = 0, high = modules.count
        while low < high {
            let mid = (low + high) / 2
            if modules[mid].name.rawValue < name { low = mid + 1 } else { high = mid }
        }
        return low < modules.count && modules[low].name.rawValue == name ? modules[low] : nil
    }

    /// Whether `module` is one of the project's spec files (`ProjectFile.isSpecFile`): never packaged.
    public func isSpec(_ module: ProjectModule) -> Bool {
        guard module.dependency == nil else { return false }
        let rootPath = RunTarget.lexicallyStandardized(root.path) + "/"
        let path = RunTarget.lexicallyStandardized(module.file.path)
        return path.hasPrefix(rootPath) && projectFile.isSpecFile(String(path.dropFirst(rootPath.count)))
    }

    /// The script a program loads by `path` (relative to its sources folder), if the project has it.
    public func script(atPath path: String) -> ProjectScript? {
        scripts.first { $0.relativePath == path }
    }

    /// The resource `getResource(name, type)` would get, if the project has it.
    public func resource(named name: String, type: String) -> ProjectResource? {
        resources.first { $0.key.name == name && $0.key.type == type }
    }
}
