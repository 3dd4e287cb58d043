/// What a `.luapkg` says about itself: its `manifest.json`, the archive's first entry.
///
/// Every entry the package holds is listed here with its size and SHA-256, and `digest`
/// identifies the whole package: see `Manifest.packageDigest` (format 2) for its exact form.
public struct Manifest: Sendable, Equatable {
    /// A Lua module: `require(name)` gets the code stored at `path` (`modules/Foo/Bar.lua`).
    public struct Module: Sendable, Equatable {
        public var name: ModuleName
        /// The entry's path inside the package.
        public var path: String
        public var size: Int64
        /// Lowercase hex SHA-256 of the entry's bytes.
        public var sha256: String

        public init(name: ModuleName, path: String, size: Int64, sha256: String) {
            self.name = name
            self.path = path
            self.size = size
            self.sha256 = sha256
        }
    }

    /// A resource: `getResource(key.name, key.type)` gets the bytes stored at `path`.
    public struct Resource: Sendable, Equatable {
        public var key: ResourceKey
        /// The entry's path inside the package (`resources/img/logo.png`).
        public var path: String
        public var size: Int64
        /// Lowercase hex SHA-256 of the entry's bytes.
        public var sha256: String

        public init(key: ResourceKey, path: String, size: Int64, sha256: String) {
            self.key = key
            self.path = path
            self.size = size
            self.sha256 = sha256
        }
    }

    /// A script: a Lua file a program loads by path (`loadfile`, `dofile`), not by `require`
    /// (`muc/password.lib.lua`, whose dotted name no `require` reaches). Stored at `path`,
    /// `scripts/` and the file's path inside its sources folder.
    public struct Script: Sendable, Equatable {
        /// The entry's path inside the package (`scripts/muc/password.lib.lua`).
        public var path: String
        public var size: Int64
        /// Lowercase hex SHA-256 of the entry's bytes.
        public var sha256: String

        public init(path: String, size: Int64, sha256: String) {
            self.path = path
            self.size = size
            self.sha256 = sha256
        }

        /// The path a program loads it by: `path` without `scripts/`.
        public var loadPath: String { String(path.dropFirst(PackagePath.scriptsFolder.count)) }
    }

    /// The format version this code writes. Format 2 changed only what `digest` covers
    /// (identifier, name, version, start module and Lua version besides the entries).
    public static let currentFormatVersion = 2
    /// The format versions this code reads: 1 (digest over the entries only) and 2.
    public static let readableFormatVersions = [1, 2]
    /// The Lua version packages target; the runtime embeds this one.
    public static let currentLuaVersion = "5.4"
    /// The manifest's entry name; always the archive's first entry.
    public static let entryName = "manifest.json"

    public var formatVersion: Int
    public var identifier: PackageIdentifier
    public var name: String
    public var version: String
    public var startModule: ModuleName?
    public var luaVersion: String
    public var generator: String
    public var modules: [Module]
    public var resources: [Resource]
    public var digest: String
    /// C modules `require` may load from the host's Lua C path: module names, or `Prefix.*`
    /// for every module below a prefix. Written only when there are some.
    public var externalModules: [String] = []
    /// The host runtime this package was built for (flowpkg.json's `runtimeVersion`); a host
    /// that declares its own takes downloaded updates only when they match. Nil in packages
    /// that do not say (older ones among them), which stay readable.
    public var runtimeVersion: String? = nil
    /// The scripts, sorted by path. Written only when there are some, so packages without
    /// scripts keep their bytes (and their digest).
    public var scripts: [Script] = []
    /// The dependencies some modules came from (ManifestDependencies.swift). Written only when
    /// there are some.
    public var dependencies: [Dependency] = []

    public init(
        formatVersion: Int = Manifest.currentFormatVersion, identifier: PackageIdentifier, name: String,
        version: String, startModule: ModuleName?, luaVersion: String = Manifest.currentLuaVersion,
        generator: String = ToolVersion.generator, modules: [Module], resources: [Resource], digest: String
    ) {
        self.formatVersion = formatVersion
        self.identifier = identifier
        self.name = name
        self.version = version
        self.startModule = startModule
        self.luaVersion = luaVersion
        self.generator = generator
        self.modules = modules
        self.resources = resources
        self.digest = digest
    }

    /// Every entry the manifest lists besides itself, as (path, size, sha256).
    public var entries: [(path: String, size: Int64, sha256: String)] {
        modules.map { ($0.path, $0.size, $0.sha256) } + resources.map { ($0.path, $0.size, $0.sha256) }
            + scripts.map { ($0.path, $0.size, $0.sha256) }
    }

    /// Why `entry` cannot be an `externalModules` entry: a module name, a prefix and `.*`, or
    /// a glob (`rspamd_*`: a `*` stands for any run of characters).
    public static func externalModuleProblem(_ entry: String) -> String? {
        let name = entry.hasSuffix(".*") ? String(entry.dropLast(2)) : entry
        if !name.isEmpty, name.allSatisfy({ $0 == "*" }) { return "a glob of only '*' would take every module" }
        return ModuleName.problem(in: name.replacingAll("*", with: "x"))
    }

    /// The module `name`, if the package has it.
    public func module(named name: ModuleName) -> Module? { modules.first { $0.name == name } }

    /// The script a program loads by `loadPath` (`muc/password.lib.lua`), if the package has it.
    public func script(atPath loadPath: String) -> Script? {
        let path = PackagePath.scriptsFolder + loadPath
        return scripts.first { $0.path == path }
    }

    /// The resource `key`, if the package has it.
    public func resource(_ key: ResourceKey) -> Resource? { resources.first { $0.key == key } }

    /// The digest this manifest's format defines (`packageDigest` from format 2 on,
    /// `entryListDigest` for format 1); a sound manifest's `digest` equals it.
    public var computedDigest: String {
        formatVersion == 1 ? Self.entryListDigest(of: entries.map { ($0.path, $0.sha256) }) : packageDigest
    }
}
