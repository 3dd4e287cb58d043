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

/// Everything the writer needs to produce a package: names, and for each module and resource
/// the file its bytes come from. Host paths are read, never written: the package stores only
/// the names derived here.
public struct PackageInput: Sendable {
    /// A module file: `relativePath` is its path inside its sources folder (`Foo/Bar.lua`),
    /// which becomes the entry `modules/Foo/Bar.lua`.
    public struct Module: Sendable, Equatable {
        public var name: ModuleName
        public var relativePath: String
        public var file: URL
        /// The file's bytes when the caller already read them (validation did): written as
        /// they are, so the file is not read again. Nil reads `file`.
        public var contents: [UInt8]?

        public init(name: ModuleName, relativePath: String, file: URL, contents: [UInt8]? = nil) {
            self.name = name
            self.relativePath = relativePath
            self.file = file
            self.contents = contents
        }
    }

    /// A resource file, stored as the entry `resources/<key.fileName>` whatever the file is
    /// called on disk (a linked file outside the project keeps only its resource name).
    public struct Resource: Sendable, Equatable {
        public var key: ResourceKey
        public var file: URL

        public init(key: ResourceKey, file: URL) {
            self.key = key
            self.file = file
        }
    }

    /// A script (a Lua file loaded by path): `relativePath` is its path inside its sources
    /// folder (`muc/password.lib.lua`), which becomes the entry `scripts/muc/password.lib.lua`.
    public struct Script: Sendable, Equatable {
        public var relativePath: String
        public var file: URL
        /// The file's bytes when the caller already read them, as for a module.
        public var contents: [UInt8]?

        public init(relativePath: String, file: URL, contents: [UInt8]? = nil) {
            self.relativePath = relativePath
            self.file = file
            self.contents = contents
        }
    }

    public var identifier: PackageIdentifier
    public var name: String
    public var version: String
    public var startModule: ModuleName?
    public var modules: [Module]
    public var resources: [Resource]
    /// The C modules the host's Lua C path provides (`name` or `Prefix.*`), recorded in the
    /// manifest so the runtime may load them.
    public var externalModules: [String]
    /// The manifest's `runtimeVersion`: the host runtime the package needs; nil leaves it out.
    public var runtimeVersion: String? = nil
    /// The scripts, stored under `scripts/`.
    public var scripts: [Script] = []
    /// The dependencies some modules came from, recorded in the manifest (sorted by name).
    public var dependencies: [Manifest.Dependency] = []

    public init(
        identifier: PackageIdentifier, name: String, version: String, startModule: ModuleName?,
        modules: [Module], resources: [Resource], externalModules: [String] = []
    ) {
        self.externalModules = externalModules
        self.identifier = identifier
        self.name = name
        self.version = version
        self.startModule = startModule
        self.modules = modules
        self.resources = resources
    }
}
