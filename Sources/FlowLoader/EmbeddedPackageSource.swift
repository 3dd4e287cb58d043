import FlowPackage
import Foundation

/// A `.luapkg` shipped with the host, read through `PackageReader` with every rule of `verify`
/// enforced.
///
/// Opening reads the manifest and builds the index, then reads every module once and checks
/// it against its SHA-256, so a corrupt module is refused before the first line of Lua runs.
/// Resources are not touched until asked for, and each is checked as it is read: opening
/// costs the same however many megabytes of resources the package carries.
public final class EmbeddedPackageSource: PackageSource, @unchecked Sendable {
    public let kind = SourceKind.embeddedPackage
    public let location: String
    public let identifier: PackageIdentifier
    public let manifest: Manifest
    private let reader: PackageReader
    private let modules: [ModuleName: ModuleCode]
    private let resourceKeys: Set<ResourceKey>

    /// Opens and checks the package at `url`; with `expectedIdentifier`, a package of another
    /// identifier is refused.
    public init(contentsOf url: URL, expectedIdentifier: PackageIdentifier? = nil) throws(LoaderError) {
        location = url.path
        do {
            reader = try PackageReader(contentsOf: url)
        } catch {
            throw .packageRefused(location: url.path, reasons: Self.reasons(error))
        }
        manifest = reader.manifest
        identifier = manifest.identifier
        if let expectedIdentifier, expectedIdentifier != identifier {
            throw .identifierMismatch(location: url.path, expected: expectedIdentifier, found: identifier)
        }
        let code: [ModuleName: [UInt8]]
        do {
            code = try reader.allModules()
        } catch {
            throw .packageRefused(location: url.path, reasons: Self.reasons(error))
        }
        var modules: [ModuleName: ModuleCode] = [:]
        for module in manifest.modules {
            guard let bytes = code[module.name] else { continue }
            modules[module.name] = ModuleCode(name: module.name, chunkName: Self.chunkName(module.path), bytes: bytes)
        }
        self.modules = modules
        resourceKeys = Set(manifest.resources.map(\.key))
    }

    /// The module, verified when the package was opened.
    public func module(named name: ModuleName) throws -> ModuleCode? {
        modules[name]
    }

    /// The resource's bytes, read now and checked against the manifest.
    public func resource(_ key: ResourceKey) throws -> [UInt8]? {
        guard resourceKeys.contains(key) else { return nil }
        do {
            return try reader.resourceData(key)
        } catch {
            throw LoaderError.itemRefused(item: "resource '\(key)'", location: location,
                                          reason: Self.reasons(error).joined(separator: "; "))
        }
    }

    /// The package path without its `modules/` folder: `modules/pl/tablex.lua` reads
    /// `pl/tablex.lua:40:` in errors, as the project folder does.
    static func chunkName(_ path: String) -> String {
        path.hasPrefix("modules/") ? String(path.dropFirst("modules/".count)) : path
    }

    private static func reasons(_ error: any Error) -> [String] {
        if let error = error as? PackageError { return error.problems.map(\.description) }
        return ["\(error)"]
    }
}
