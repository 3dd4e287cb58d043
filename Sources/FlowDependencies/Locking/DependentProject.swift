import FlowDiagnostics

/// A project folder as the dependency commands see it: what its flowpkg.json says about
/// dependencies and the host. FlowProject owns the project file and discovery; it hands them
/// over through `ProjectFolderReading`, so the locking lives here without knowing either.
public struct DependentProject: Sendable {
    /// The file name a project folder holds.
    public static let fileName = "flowpkg.json"
    /// The key of the dependencies only the project's tests use (luassert, say).
    public static let devDependenciesKey = "devDependencies"

    public var name: String
    public var version: String
    /// `dependencies` and `devDependencies`, in the order written.
    public var dependencies: [DependencyDeclaration]
    /// `rocksServers`: URLs or folders; LuaRocks' default when empty.
    public var rocksServers: [String]
    /// Whether the host provides `module` (`externalModules`).
    public var isExternalModule: @Sendable (String) -> Bool

    public init(
        name: String, version: String, dependencies: [DependencyDeclaration], rocksServers: [String],
        isExternalModule: @escaping @Sendable (String) -> Bool
    ) {
        self.name = name
        self.version = version
        self.dependencies = dependencies
        self.rocksServers = rocksServers
        self.isExternalModule = isExternalModule
    }
}

/// flowpkg.json read: the project (nil when it is missing or has errors), its bytes when the
/// file could be read, and the errors.
public struct ProjectRead: Sendable {
    public var file: DependentProject?
    public var bytes: [UInt8]?
    public var diagnostics: [Diagnostic]

    public init(file: DependentProject?, bytes: [UInt8]?, diagnostics: [Diagnostic]) {
        self.file = file
        self.bytes = bytes
        self.diagnostics = diagnostics
    }
}

/// One module of a path dependency, as found in its folder and read within validate's limit.
public struct FolderModule: Sendable {
    public var name: String
    /// Relative to its source root: the path the lock records.
    public var relativePath: String
    /// The file as found under the dependency's folder.
    public var path: String
    public var size: Int64
    public var sha256: String

    public init(name: String, relativePath: String, path: String, size: Int64, sha256: String) {
        self.name = name
        self.relativePath = relativePath
        self.path = path
        self.size = size
        self.sha256 = sha256
    }
}

/// What the dependency commands need of project folders, supplied by FlowProject.
public protocol ProjectFolderReading: Sendable {
    /// The flowpkg.json in `folder`, read and decoded.
    func read(folder: String) -> ProjectRead
    /// `bytes`, flowpkg.json as edited in place, decoded as the file at `path`.
    func decode(_ bytes: [UInt8], path: String) -> ProjectRead
    /// The project in `folder` (`path` as written, resolved against `root`, the app's folder)
    /// used as the path dependency `name`: its own modules, version and flowpkg.json's
    /// dependencies. Throws when the folder cannot be used (not a project, outside the
    /// repository, a module too large).
    func pathDependency(named name: String, path: String, folder: String, root: String) throws(DependencyError)
        -> PathDependencyFolder
}

/// A path dependency's folder as read now.
public struct PathDependencyFolder: Sendable {
    public var modules: [FolderModule]
    public var version: String
    /// Its own flowpkg.json's `dependencies` (paths relative to its folder), dev ones left out.
    public var declarations: [DependencyDeclaration]

    public init(modules: [FolderModule], version: String, declarations: [DependencyDeclaration]) {
        self.modules = modules
        self.version = version
        self.declarations = declarations
    }
}
