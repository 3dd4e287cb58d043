// Which source serves a module: the source policy at start-up, then a loader asking its
// sources in order, highest first.
import FlowLoader
import FlowPackage

// The policy is one pure function of what the host knows at start-up.
let situations: [(String, SourceSituation)] = [
    ("release host", .init(monitor: .absent, primary: .ready(.embeddedPackage))),
    ("live source connected", .init(monitor: .connected, primary: .ready(.embeddedPackage))),
    ("nothing connected in time", .init(monitor: .notConnected, primary: .ready(.embeddedPackage))),
    ("live source refused", .init(monitor: .refused(reason: "wrong token"), primary: .ready(.embeddedPackage))),
    ("package missing", .init(monitor: .absent, primary: .unusable(location: "App.luapkg", reason: "no such file"))),
]
for (label, situation) in situations {
    let plan = SourcePolicy.plan(for: situation)
    let order = plan.order.map(\.rawValue).joined(separator: " then ")
    print("\(label): \(plan.failure.map { "fails: \($0)" } ?? order)", terminator: "")
    print(plan.acceptsLaterConnection ? " (a later live source takes over)" : "")
    for warning in plan.warnings { print("  warning: \(warning)") }
}

/// A source that serves modules from memory: any `PackageSource` can stand in the list.
final class MemorySource: PackageSource {
    let kind: SourceKind
    let location: String
    let identifier: PackageIdentifier
    let modules: [ModuleName: String]

    init(_ kind: SourceKind, at location: String, identifier: PackageIdentifier, modules: [ModuleName: String]) {
        self.kind = kind
        self.location = location
        self.identifier = identifier
        self.modules = modules
    }

    func module(named name: ModuleName) throws -> ModuleCode? {
        modules[name].map { ModuleCode(name: name, chunkName: "\(name).lua", bytes: Array($0.utf8)) }
    }

    func resource(_ key: ResourceKey) throws -> [UInt8]? { nil }
}

// The first source that has a module serves it; the others are asked only for what it lacks.
let identifier = try PackageIdentifier("com.example.app")
let live = MemorySource(
    .live, at: "http://127.0.0.1:7315", identifier: identifier, modules: [try ModuleName("main"): "return 'edited'"])
let shipped = MemorySource(
    .embeddedPackage, at: "App.luapkg", identifier: identifier,
    modules: [try ModuleName("main"): "return 'shipped'", try ModuleName("util"): "return {}"])
let loader = try Loader(identifier: identifier, sources: [live, shipped])
print(String(decoding: try loader.module(named: try ModuleName("main")).bytes, as: UTF8.self))
_ = try loader.module(named: try ModuleName("util"))
for item in loader.loadedItems { print(item) }  // each item and the source that served it
do {
    _ = try loader.module(named: try ModuleName("missing"))
} catch {
    print(error)  // names every place it searched
}
