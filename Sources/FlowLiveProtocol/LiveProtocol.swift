import FlowPackage

/// The wire protocol between `flowpkg serve` (the live source) and a host's development
/// monitor: a few authenticated HTTP GETs and a server-sent event stream one way, POSTed
/// reports (`LiveReport`, in LiveReport.swift) the other.
///
/// Every request carries `Authorization: Bearer <token>`. Modules and resources are asked for
/// by their package names in the query string, scripts by their path relative to the sources
/// folder as the manifest lists it; never by a file path of the server's.
public enum LiveProtocol {
    public static let defaultPort: UInt16 = 7315
    /// `GET` → `LiveManifest` as JSON.
    public static let manifestPath = "/v1/manifest"
    /// `GET ?name=Foo.Bar` → the module's bytes.
    public static let modulePath = "/v1/module"
    /// `GET ?name=img/logo&type=png` → the resource's bytes.
    public static let resourcePath = "/v1/resource"
    /// `GET ?path=muc/password.lib.lua` → the script's bytes (a Lua file loaded by path).
    public static let scriptPath = "/v1/script"
    /// `GET` → `text/event-stream`; each `change` event's data is a `LiveChange` as JSON.
    public static let eventsPath = "/v1/events"
    /// The SSE event name of a change.
    public static let changeEvent = "change"
}

/// What a live source serves right now.
public struct LiveManifest: Codable, Sendable, Equatable {
    public struct Module: Codable, Sendable, Equatable {
        /// Checked when the manifest is decoded: a bad name fails the whole manifest.
        public var name: ModuleName
        /// Relative path under the source root: the chunk name errors show.
        public var path: String
        /// Changes whenever the module's bytes change (their SHA-256).
        public var tag: String
        /// The file relative to the project folder (`Sources/Foo/Bar.lua`): the chunk name a
        /// live client gives it, so errors name the project's file. Absent from older servers.
        public var file: String?

        public init(name: ModuleName, path: String, tag: String, file: String? = nil) {
            self.name = name
            self.path = path
            self.tag = tag
            self.file = file
        }
    }

    /// On the wire `{"name": …, "type": …, "tag": …}`; the key is checked when decoded.
    public struct Resource: Codable, Sendable, Equatable, Hashable {
        public var key: ResourceKey
        /// Changes whenever the resource's file changes.
        public var tag: String

        public var name: String { key.name }
        public var type: String { key.type }

        public init(key: ResourceKey, tag: String) {
            self.key = key
            self.tag = tag
        }

        private enum CodingKeys: String, CodingKey {
            case tag
        }

        public init(from decoder: any Decoder) throws {
            key = try ResourceKey(from: decoder)
            tag = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .tag)
        }

        public func encode(to encoder: any Encoder) throws {
            try key.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(tag, forKey: .tag)
        }
    }

    /// A script: a Lua file a program loads by path (`dofile`, `loadfile`), not by `require`.
    public struct Script: Codable, Sendable, Equatable {
        /// The path a program loads it by, relative to the sources folder (`muc/password.lib.lua`).
        public var path: String
        /// Changes whenever the script's bytes change (their SHA-256).
        public var tag: String
        /// The file relative to the project folder, the chunk name a live client gives it.
        public var file: String?

        public init(path: String, tag: String, file: String? = nil) {
            self.path = path
            self.tag = tag
            self.file = file
        }
    }

    public var identifier: String
    public var name: String
    /// Bumped on every change the server notices.
    public var revision: Int
    public var startModule: ModuleName?
    public var modules: [Module]
    public var resources: [Resource]
    /// Absent from older servers: none then.
    public var scripts: [Script]

    public init(
        identifier: String, name: String, revision: Int, startModule: ModuleName?,
        modules: [Module], resources: [Resource], scripts: [Script] = []
    ) {
        self.identifier = identifier
        self.name = name
        self.revision = revision
        self.startModule = startModule
        self.modules = modules
        self.resources = resources
        self.scripts = scripts
    }

    private enum CodingKeys: String, CodingKey {
        case identifier, name, revision, startModule, modules, resources, scripts
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decode(String.self, forKey: .identifier)
        name = try container.decode(String.self, forKey: .name)
        revision = try container.decode(Int.self, forKey: .revision)
        startModule = try container.decodeIfPresent(ModuleName.self, forKey: .startModule)
        modules = try container.decode([Module].self, forKey: .modules)
        resources = try container.decode([Resource].self, forKey: .resources)
        scripts = try container.decodeIfPresent([Script].self, forKey: .scripts) ?? []
    }
}

/// One change pushed on the event stream: what to load again. Its names are typed and checked
/// when the event is decoded: an event with a bad name is refused whole, with the reason.
public struct LiveChange: Codable, Sendable, Equatable {
    public var revision: Int
    /// Modules added or changed.
    public var modules: [ModuleName]
    public var removedModules: [ModuleName]
    /// Resources added or changed.
    public var resources: [ResourceKey]
    public var removedResources: [ResourceKey]
    /// Scripts added or changed, by path; absent from older servers.
    public var scripts: [String]
    public var removedScripts: [String]

    public init(
        revision: Int, modules: [ModuleName] = [], removedModules: [ModuleName] = [],
        resources: [ResourceKey] = [], removedResources: [ResourceKey] = [],
        scripts: [String] = [], removedScripts: [String] = []
    ) {
        self.revision = revision
        self.modules = modules
        self.removedModules = removedModules
        self.resources = resources
        self.removedResources = removedResources
        self.scripts = scripts
        self.removedScripts = removedScripts
    }

    private enum CodingKeys: String, CodingKey {
        case revision, modules, removedModules, resources, removedResources, scripts, removedScripts
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        revision = try container.decode(Int.self, forKey: .revision)
        modules = try container.decode([ModuleName].self, forKey: .modules)
        removedModules = try container.decode([ModuleName].self, forKey: .removedModules)
        resources = try container.decode([ResourceKey].self, forKey: .resources)
        removedResources = try container.decode([ResourceKey].self, forKey: .removedResources)
        scripts = try container.decodeIfPresent([String].self, forKey: .scripts) ?? []
        removedScripts = try container.decodeIfPresent([String].self, forKey: .removedScripts) ?? []
    }

    public var isEmpty: Bool {
        modules.isEmpty && removedModules.isEmpty && resources.isEmpty && removedResources.isEmpty
            && scripts.isEmpty && removedScripts.isEmpty
    }

    /// What differs between two manifests of a live source: what a client must load again.
    public static func between(_ old: LiveManifest?, _ new: LiveManifest) -> LiveChange {
        let oldModules = Dictionary((old?.modules ?? []).map { ($0.name, $0.tag) }, uniquingKeysWith: { a, _ in a })
        let newModules = Dictionary(new.modules.map { ($0.name, $0.tag) }, uniquingKeysWith: { a, _ in a })
        let oldResources = Dictionary((old?.resources ?? []).map { ($0.key, $0.tag) }, uniquingKeysWith: { a, _ in a })
        let newResources = Dictionary(new.resources.map { ($0.key, $0.tag) }, uniquingKeysWith: { a, _ in a })
        let oldScripts = Dictionary((old?.scripts ?? []).map { ($0.path, $0.tag) }, uniquingKeysWith: { a, _ in a })
        let newScripts = Dictionary(new.scripts.map { ($0.path, $0.tag) }, uniquingKeysWith: { a, _ in a })
        return LiveChange(
            revision: new.revision,
            modules: newModules.filter { oldModules[$0.key] != $0.value }.keys.sorted(),
            removedModules: oldModules.keys.filter { newModules[$0] == nil }.sorted(),
            resources: newResources.filter { oldResources[$0.key] != $0.value }.keys.sorted(),
            removedResources: oldResources.keys.filter { newResources[$0] == nil }.sorted(),
            scripts: newScripts.filter { oldScripts[$0.key] != $0.value }.keys.sorted(),
            removedScripts: oldScripts.keys.filter { newScripts[$0] == nil }.sorted())
    }
}
