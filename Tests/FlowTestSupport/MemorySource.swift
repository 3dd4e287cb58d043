import FlowLoader
import FlowPackage
import Foundation

/// A source held in memory, for tests of the loader's order and provenance.
public final class MemorySource: PackageSource, @unchecked Sendable {
    public let kind: SourceKind
    public let location: String
    public let identifier: PackageIdentifier
    private let lock = NSLock()
    private var modules: [ModuleName: String]
    private var resources: [ResourceKey: String]
    /// Items that throw, as a source with a corrupt entry would.
    public var broken: Set<String> = []

    public init(
        kind: SourceKind, location: String, identifier: String = "com.example.app",
        modules: [String: String] = [:], resources: [String: String] = [:]
    ) throws {
        self.kind = kind
        self.location = location
        self.identifier = try PackageIdentifier(identifier)
        self.modules = Dictionary(uniqueKeysWithValues: try modules.map { (try ModuleName($0.key), $0.value) })
        self.resources = Dictionary(
            uniqueKeysWithValues: try resources.map { (try ResourceKey(relativePath: $0.key), $0.value) })
    }

    public func module(named name: ModuleName) throws -> ModuleCode? {
        if broken.contains(name.rawValue) { throw SourceFailure(reason: "digest mismatch") }
        guard let text = lock.withLock({ modules[name] }) else { return nil }
        let path = name.components.joined(separator: "/") + ".lua"
        return ModuleCode(name: name, chunkName: path, bytes: Array(text.utf8))
    }

    public func resource(_ key: ResourceKey) throws -> [UInt8]? {
        if broken.contains(key.fileName) { throw SourceFailure(reason: "digest mismatch") }
        return lock.withLock { resources[key] }.map { Array($0.utf8) }
    }

    public func setModule(_ name: String, _ text: String) throws {
        let key = try ModuleName(name)
        lock.withLock { modules[key] = text }
    }

    public func setResource(_ path: String, _ text: String) throws {
        let key = try ResourceKey(relativePath: path)
        lock.withLock { resources[key] = text }
    }
}

public struct SourceFailure: Error, CustomStringConvertible {
    public var reason: String
    public init(reason: String) { self.reason = reason }
    public var description: String { reason }
}
