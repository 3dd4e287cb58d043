import FlowPackage

/// The wire protocol between `flowpkg serve` (the live source) and a host's development
/// monitor: a few authenticated HTTP GETs and a server-sent event stream one way, POSTed
/// reports (`LiveReport`, in LiveReport.swift) the other.
///
/// Every request carries `Authorization: Bearer <token>`. Modules and resources are asked for
/// by their package names in the query string, never by a file path.
public enum LiveProtocol {
    public static let defaultPort: UInt16 = 7315
    /// `GET` → `LiveManifest` as JSON.
    public static let manifestPath = "/v1/manifest"
    /// `GET ?name=Foo.Bar` → the module's bytes.
    public static let modulePath = "/v1/module"
    /// `GET ?name=img/logo&type=png` → the resource's bytes.
    public static let resourcePath = "/v1/resource"
    /// `GET` → `text/event-stream`; each `change` event's data is a `LiveChange` as JSON.
    public static let eventsPath = "/v1/events"
    /// The SSE event name of a change.
    public static let changeEvent = "change"
}

/// What a live source serves right now.
public struct LiveManifest: Codable, Sendable, Equatable {
    public struct Module: Codable, Sendable, Equatable {
        public var name: String
        /// Relative path under the source root: the chunk name errors show.
        public var path: String
        /// Changes whenever the module's bytes change (their SHA-256).
        public var tag: String
        /// The file relative to the project folder (`Sources/Foo/Bar.lua`): the chunk name a
        /// live client gives it, so errors name the project's file. Absent from older servers.
        public var file: String?

        public init(name: String, path: String, tag: String, file: String? = nil) {
            self.name = name
            self.path = path
            self.tag = tag
            self.file = file
        }
    }

    public struct Resource: Codable, Sendable, Equatable, Hashable {
        public var name: String
        public var type: String
        /// Changes whenever the resource's file changes.
        public var tag: String

        public init(name: String, type: String, tag: String) {
            self.name = name
            self.type = type
            self.tag = tag
        }
    }

    public var identifier: String
    public var name: String
    /// Bumped on every change the server notices.
    public var revision: Int
    public var startModule: String?
    public var modules: [Module]
    public var resources: [Resource]

    public init(
        identifier: String, name: String, revision: Int, startModule: String?,
        modules: [Module], resources: [Resource]
    ) {
        self.identifier = identifier
        self.name = name
        self.revision = revision
        self.startModule = startModule
        self.modules = modules
        self.resources = resources
    }
}

/// One change pushed on the event stream: what to load again.
public struct LiveChange: Codable, Sendable, Equatable {
    public struct ResourceName: Codable, Sendable, Equatable, Hashable {
        public var name: String
        public var type: String

        public init(name: String, type: String) {
            self.name = name
            self.type = type
        }
    }

    public var revision: Int
    /// Modules added or changed.
    public var modules: [String]
    public var removedModules: [String]
    /// Resources added or changed.
    public var resources: [ResourceName]
    public var removedResources: [ResourceName]

    public init(
        revision: Int, modules: [String] = [], removedModules: [String] = [],
        resources: [ResourceName] = [], removedResources: [ResourceName] = []
    ) {
        self.revision = revision
        self.modules = modules
        self.removedModules = removedModules
        self.resources = resources
        self.removedResources = removedResources
    }

    public var isEmpty: Bool {
        modules.isEmpty && removedModules.isEmpty && resources.isEmpty && removedResources.isEmpty
    }

    /// What differs between two manifests of a live source: what a client must load again.
    public static func between(_ old: LiveManifest?, _ new: LiveManifest) -> LiveChange {
        let oldModules = Dictionary((old?.modules ?? []).map { ($0.name, $0.tag) }, uniquingKeysWith: { a, _ in a })
        let newModules = Dictionary(new.modules.map { ($0.name, $0.tag) }, uniquingKeysWith: { a, _ in a })
        func key(_ r: LiveManifest.Resource) -> LiveChange.ResourceName { .init(name: r.name, type: r.type) }
        let oldResources = Dictionary((old?.resources ?? []).map { (key($0), $0.tag) }, uniquingKeysWith: { a, _ in a })
        let newResources = Dictionary(new.resources.map { (key($0), $0.tag) }, uniquingKeysWith: { a, _ in a })
        let byName: (LiveChange.ResourceName, LiveChange.ResourceName) -> Bool = {
            ($0.name, $0.type) < ($1.name, $1.type)
        }
        return LiveChange(
            revision: new.revision,
            modules: newModules.filter { oldModules[$0.key] != $0.value }.keys.sorted(),
            removedModules: oldModules.keys.filter { newModules[$0] == nil }.sorted(),
            resources: newResources.filter { oldResources[$0.key] != $0.value }.keys.sorted(by: byName),
            removedResources: oldResources.keys.filter { newResources[$0] == nil }.sorted(by: byName))
    }
}
