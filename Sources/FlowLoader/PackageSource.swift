import FlowPackage

/// The kinds of place a context's code can come from, in the words the trace prints.
public enum SourceKind: String, Sendable, Equatable, Codable {
    /// A `.luapkg` shipped with the host.
    case embeddedPackage = "package"
    /// A project folder on disk (`flowpkg run DIR`).
    case projectFolder = "folder"
    /// A live development source (`flowpkg serve`), debug hosts only.
    case live = "live"
    /// A signed package downloaded from an update feed (FlowUpdates), chosen over the
    /// embedded package by `UpdatePolicy`.
    case downloadedUpdate = "update"
}

/// A module's code as a source serves it.
public struct ModuleCode: Sendable, Equatable {
    public var name: ModuleName
    /// The name Lua errors show: the module's file relative to its source root (`pl/tablex.lua`).
    public var chunkName: String
    public var bytes: [UInt8]
    /// The module's file relative to its sources folder (`bar/init.lua`), whatever the chunk
    /// name shows: what stock Lua's searchers would have found, so `require "bar.init"` can
    /// tell `bar/init.lua` from `bar.lua`. Defaults to the chunk name.
    public var path: String

    public init(name: ModuleName, chunkName: String, bytes: [UInt8], path: String? = nil) {
        self.name = name
        self.chunkName = chunkName
        self.bytes = bytes
        self.path = path ?? chunkName
    }
}

/// A script's code (a Lua file loaded by path, not by `require`) as a source serves it.
public struct ScriptCode: Sendable, Equatable {
    /// The path a program loads it by, relative to the sources folder (`muc/password.lib.lua`).
    public var path: String
    /// The name Lua errors show, as for a module.
    public var chunkName: String
    public var bytes: [UInt8]

    public init(path: String, chunkName: String, bytes: [UInt8]) {
        self.path = path
        self.chunkName = chunkName
        self.bytes = bytes
    }
}

/// One place modules and resources can come from.
///
/// A source answers nil for what it does not have, and throws when it has the thing but
/// cannot serve it intact (a digest mismatch, an unreadable file).
public protocol PackageSource: AnyObject, Sendable {
    var kind: SourceKind { get }
    /// Where it is, for messages and the trace (a file path or a URL).
    var location: String { get }
    /// The package identifier this source serves.
    var identifier: PackageIdentifier { get }

    /// The module a host starts with, when this source is a whole package that names one
    /// (an embedded package, a downloaded update); nil for a source that serves only parts.
    var startModule: ModuleName? { get }
    /// The C modules the package may load from the host's Lua C path.
    var externalModules: [String] { get }

    func module(named name: ModuleName) throws -> ModuleCode?
    func resource(_ key: ResourceKey) throws -> [UInt8]?
    /// The script (a Lua file loaded by path, `muc/password.lib.lua`) at `path`, relative to
    /// the sources folder.
    func script(atPath path: String) throws -> ScriptCode?
    /// The files this source would have held module `name` in, as Lua errors name files
    /// (`App.luapkg/modules/a/b.lua`): what a failed `require` lists, as stock Lua's does.
    func searchedPaths(for name: ModuleName) -> [String]
    /// The folders, as absolute paths a program can name, that hold this source's module files
    /// as a sources folder holds them (`/work/App/Sources`, `/work/App.luapkg/modules`): a
    /// path a program adds to `package.path` that leads into one names the module there.
    var moduleFolders: [String] { get }
    /// The name Lua errors would give module `name`'s file (`App.luapkg/modules/main.lua`),
    /// found without reading it; nil when this source does not have it.
    func chunkName(ofModule name: ModuleName) -> String?
}

extension PackageSource {
    /// A source without scripts.
    public func script(atPath path: String) throws -> ScriptCode? { nil }

    /// A source that names no files: a failed `require` names the source instead.
    public func searchedPaths(for name: ModuleName) -> [String] { [] }

    /// A source with no folder a program can name (a live source).
    public var moduleFolders: [String] { [] }

    /// A source that cannot name a module's file without serving it.
    public func chunkName(ofModule name: ModuleName) -> String? { nil }

    /// A source that names no start module (a live source, a folder of resources).
    public var startModule: ModuleName? { nil }
    /// A source that lists no C modules of its own.
    public var externalModules: [String] { [] }

    /// How messages name this source: its kind and where it is (`package /app/App.luapkg`).
    public var place: String { "\(kind.rawValue) \(location)" }
}
