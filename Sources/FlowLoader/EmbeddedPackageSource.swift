import FlowPackage
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

/// A `.luapkg` shipped with the host, read through `PackageReader` with every rule of `verify`
/// enforced: verify on first load.
///
/// Opening reads the zip's central directory and the manifest only, and refuses the package
/// unless its entries match the manifest exactly (no unlisted, missing or duplicate entry). A
/// module is read and checked against its SHA-256 when it is first loaded, before any of its
/// code runs; a resource each time it is read. A mismatch throws an error naming the package,
/// the entry and the reason, and the entry is never served. With `verifyAll`, every entry is
/// read and checked at open instead, so a package with any bad entry is refused before the
/// first line of Lua runs.
public final class EmbeddedPackageSource: PackageSource {
    public let kind = SourceKind.embeddedPackage
    public let location: String
    public let identifier: PackageIdentifier
    /// How chunk names start: `App.luapkg` makes errors read `App.luapkg/modules/util.lua:3:`.
    /// Without one, chunk names are the module's path inside `modules/` (`util.lua:3:`).
    public let displayName: String?
    private let reader: PackageReader

    /// Opens and checks the package at `url`; with `expectedIdentifier`, a package of another
    /// identifier is refused. With `verifyAll`, every module and resource is checked against
    /// its SHA-256 now. `displayName` (the package's path as the user
    /// gave it) starts every chunk name: `App.luapkg/modules/util.lua`.
    public init(
        contentsOf url: URL, expectedIdentifier: PackageIdentifier? = nil, verifyAll: Bool = false,
        displayName: String? = nil
    ) throws(LoaderError) {
        location = url.path
        do {
            reader = try PackageReader(contentsOf: url)
        } catch {
            throw .packageRefused(location: url.path, reasons: Self.reasons(error))
        }
        identifier = reader.identifier
        if let expectedIdentifier, expectedIdentifier != identifier {
            throw .identifierMismatch(location: url.path, expected: expectedIdentifier, found: identifier)
        }
        if verifyAll {
            let problems = reader.verify()
            if !problems.isEmpty { throw .packageRefused(location: url.path, reasons: problems.map(\.description)) }
        }
        self.displayName = displayName
    }

    /// A package `PackageLocator.open(_:in:)` already opened and matched by identifier.
    init(reader: PackageReader, location: String) {
        self.location = location
        self.reader = reader
        identifier = reader.identifier
        displayName = nil
    }

    /// The whole manifest; its entry lists are made when this is first read (serving modules
    /// and resources does not need them).
    public var manifest: Manifest { reader.manifest }
    /// The module the package starts with, if it names one.
    public var startModule: ModuleName? { reader.startModule }
    /// The C modules the package may load from the host's Lua C path.
    public var externalModules: [String] { reader.externalModules }

    /// The module, read now and checked against its size and SHA-256; a mismatch throws
    /// `LoaderError.itemRefused` naming the package and the entry.
    public func module(named name: ModuleName) throws -> ModuleCode? {
        guard let module = reader.module(named: name) else { return nil }
        do {
            let path = Self.chunkName(module.path)
            return ModuleCode(
                name: name, chunkName: displayName.map { $0 + "/" + module.path } ?? path,
                bytes: try reader.moduleData(module), path: path)
        } catch {
            throw LoaderError.itemRefused(
                item: "module '\(name)'", location: location,
                reason: Self.reasons(error).joined(separator: "; "))
        }
    }

    /// The script at `path` (`muc/password.lib.lua`), read now and checked against its size and
    /// SHA-256 (verify on first load, as for modules).
    public func script(atPath path: String) throws -> ScriptCode? {
        guard let script = reader.script(atPath: path) else { return nil }
        do {
            return ScriptCode(
                path: path, chunkName: displayName.map { $0 + "/" + script.path } ?? path,
                bytes: try reader.scriptData(script))
        } catch {
            throw LoaderError.itemRefused(
                item: "script '\(path)'", location: location, reason: Self.reasons(error).joined(separator: "; "))
        }
    }

    /// `App.luapkg/modules/main.lua`, from the manifest alone.
    public func chunkName(ofModule name: ModuleName) -> String? {
        reader.module(named: name).map { module in
            displayName.map { $0 + "/" + module.path } ?? Self.chunkName(module.path)
        }
    }

    /// `modules` inside the package file, as a path: `/work/App.luapkg/modules`.
    public var moduleFolders: [String] {
        [URL(fileURLWithPath: location).standardizedFileURL.appendingPathComponent("modules").path]
    }

    /// `modules/a/b.lua` and `modules/a/b/init.lua`, named as chunks are.
    public func searchedPaths(for name: ModuleName) -> [String] {
        PackagePath.modulePaths(for: name).map { path in displayName.map { $0 + "/" + path } ?? Self.chunkName(path) }
    }

    /// The resource's bytes, read now and checked against the manifest.
    public func resource(_ key: ResourceKey) throws -> [UInt8]? {
        guard let resource = reader.resource(key) else { return nil }
        do {
            return try reader.resourceData(resource)
        } catch {
            throw LoaderError.itemRefused(
                item: "resource '\(key)'", location: location,
                reason: Self.reasons(error).joined(separator: "; "))
        }
    }

    /// The package path without its `modules/` folder: `modules/pl/tablex.lua` reads
    /// `pl/tablex.lua:40:` in errors.
    static func chunkName(_ path: String) -> String {
        // The prefix is ASCII, so its 8 characters are its 8 UTF-8 bytes: no walk by characters.
        path.hasPrefix("modules/") ? String(decoding: path.utf8.dropFirst(8), as: UTF8.self) : path
    }

    private static func reasons(_ error: any Error) -> [String] {
        if let error = error as? PackageError { return error.problems.map(\.description) }
        return ["\(error)"]
    }
}
