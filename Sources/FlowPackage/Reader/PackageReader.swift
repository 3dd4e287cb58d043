import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Dispatch
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a `.luapkg` and serves its modules and resources, each checked against the manifest.
///
/// Opening reads only the zip's central directory and the manifest (which flowpkg stores),
/// and refuses the package if they break any rule `verify` checks without reading entry data:
/// a zip that does not open, a manifest that is not first, does not parse or misses a field,
/// an entry listed but missing, unlisted, duplicated, unsafe (absolute, `..`, backslash,
/// symlink, directory) or of another size, a start module that is not there, a digest that
/// does not match, or a limit passed. Each entry's bytes are checked against their size and
/// SHA-256 every time they are read, before any is returned (verify on first load).
///
/// Thread safety: a reader is immutable once opened, and every read streams its entry through
/// its own libarchive handle with `pread`, so any number of threads may call it at once.
public final class PackageReader: Sendable {
    /// The package file, as opened.
    public var url: URL { openedURL ?? URL(fileURLWithPath: path, isDirectory: false) }
    /// The package file's path.
    public let path: String
    private let openedURL: URL?
    public let limits: PackageLimits
    /// The manifest, checked; its entry lists may still be in its bytes.
    private let decoded: DecodedManifest
    /// Where each listed entry is in the central directory, and how it is opened.
    private let listed: ListedEntries
    private var locations: EntryLocations { listed.locations }
    /// Each module's place in `manifest.modules`, by name: built only for an archive not in
    /// the manifest's order (lookups are binary searches by path otherwise).
    private let moduleTable: [ModuleName: Int]
    /// `manifest.json`'s exact bytes, as read at open: what a signature covers.
    public let manifestBytes: [UInt8]
    /// The `manifest.sig` entry: nil when the package is unsigned, `.some(nil)` when the
    /// entry is there but is not a signature.
    let signatureEntry: PackageSignature??

    /// Opens the package at `url` and checks its manifest and entry list.
    /// Throws `PackageError`, whose message names the file and the entry concerned.
    public convenience init(contentsOf url: URL, limits: PackageLimits = .default) throws {
        try self.init(path: url.path, url: url, limits: limits)
    }

    /// Opens the package at `path` as `init(contentsOf:limits:)` does, without a URL to make
    /// and take apart again: what a launch does (`Benchmarks/README.md`, host_launch).
    public convenience init(path: String, limits: PackageLimits = .default) throws {
        try self.init(path: path, url: nil, limits: limits)
    }

    /// Opens the package that is the file `name` in the open folder `folder` (a descriptor,
    /// which stays the caller's), at `path`, as `init(path:limits:)` does: a locator that has
    /// just listed the folder opens each candidate without walking the folder's path again.
    package convenience init(name: String, inFolder folder: Int32, path: String, limits: PackageLimits = .default)
        throws
    {
        try self.init(path: path, url: nil, limits: limits, folder: (folder, name))
    }

    private init(
        path: String, url: URL?, limits: PackageLimits, folder: (descriptor: Int32, name: String)? = nil
    ) throws {
        let index = try PackageIndex.load(path: path, limits: limits, folder: folder)
        if !index.problems.isEmpty { throw PackageError.invalidPackage(path: path, problems: index.problems) }
        self.path = path
        self.openedURL = url
        self.decoded = index.decoded
        self.limits = limits
        self.listed = ListedEntries(index, packagePath: path)
        if case .byPath = index.locations {
            var table: [ModuleName: Int] = [:]
            table.reserveCapacity(index.manifest.modules.count)
            for (position, module) in index.manifest.modules.enumerated() where table[module.name] == nil {
                table[module.name] = position
            }
            self.moduleTable = table
        } else {
            self.moduleTable = [:]
        }
        self.manifestBytes = index.manifestBytes
        self.signatureEntry = index.signature
    }

    /// The whole manifest. In a package in the writer's layout the entry lists are made from
    /// the manifest's bytes the first time this is read: serving modules and resources never
    /// needs it.
    public var manifest: Manifest { decoded.manifest }

    /// The manifest's identifier.
    public var identifier: PackageIdentifier { decoded.header.identifier }
    /// The module the package starts with, if it names one.
    public var startModule: ModuleName? { decoded.header.startModule }
    /// The C modules the package may load from the host's Lua C path.
    public var externalModules: [String] { decoded.header.externalModules }

    /// Whether the package carries a `manifest.sig` entry.
    public var isSigned: Bool { signatureEntry != nil }

    /// The signature checked against the keys a host trusts: trusted only when one of
    /// `trustedKeys` signed exactly this `manifest.json`.
    public func signatureStatus(trustedKeys: [PackagePublicKey]) -> SignatureStatus {
        SignatureStatus.check(signature: signatureEntry, manifestBytes: manifestBytes, trustedKeys: trustedKeys)
    }

    /// Reads and checks only `manifest.json` (the first entry), without looking at the rest
    /// of the archive: what a locator uses to pick a package by identifier.
    public static func readManifest(at url: URL, limits: PackageLimits = .default) throws -> Manifest {
        let directory = try PackageIndex.openDirectory(path: url.path, limits: limits)
        return try PackageIndex.readManifest(from: directory, path: url.path, limits: limits)
    }

    /// Throws `PackageError.identifierMismatch` unless the package is `identifier`.
    public func checkIdentifier(_ identifier: PackageIdentifier) throws {
        if self.identifier != identifier {
            throw PackageError.identifierMismatch(path: path, expected: identifier, found: self.identifier)
        }
    }

    /// The module the manifest lists as `name`, found without a scan: by binary search of the
    /// two paths it may have (`a/b.lua`, `a/b/init.lua`) in a package in the writer's order.
    public func module(named name: ModuleName) -> Manifest.Module? {
        guard case .inManifestOrder = locations else { return moduleTable[name].map { manifest.modules[$0] } }
        // Every listed path is ASCII here; a name that is not can still equal one to Swift
        // (the Kelvin sign and `K`), which only a comparison as Swift makes finds.
        guard PackagePath.isASCII(name.rawValue) else { return manifest.module(named: name) }
        // `a/b.lua` first, `a/b/init.lua` only when that is not it: one path made per lookup.
        let folder = PackagePath.moduleFolder(for: name)
        return listedModule(name, atPath: folder + ".lua") ?? listedModule(name, atPath: folder + "/init.lua")
    }

    /// The module listed at `path`, when it is module `name`.
    private func listedModule(_ name: ModuleName, atPath path: String) -> Manifest.Module? {
        guard let position = decoded.position(ofPath: path, resources: false) else { return nil }
        let module = decoded.module(at: position)
        return module.name == name ? module : nil
    }

    /// The resource the manifest lists as `key`.
    public func resource(_ key: ResourceKey) -> Manifest.Resource? {
        guard case .inManifestOrder = locations, PackagePath.isASCII(key.name), PackagePath.isASCII(key.type) else {
            return manifest.resource(key)
        }
        guard let position = decoded.position(ofPath: PackagePath.resourcePath(for: key), resources: true) else {
            return nil
        }
        let resource = decoded.resource(at: position)
        return resource.key == key ? resource : nil
    }

    /// The script a program loads by `loadPath` (`muc/password.lib.lua`), if the package lists it.
    public func script(atPath loadPath: String) -> Manifest.Script? {
        decoded.header.script(atPath: loadPath)
    }

    /// The code of `script`, checked against its size and SHA-256.
    public func scriptData(_ script: Manifest.Script) throws -> [UInt8] {
        try entryData(path: script.path, size: script.size, sha256: script.sha256)
    }

    /// The code of module `name`, checked against its size and SHA-256.
    public func moduleData(_ name: ModuleName) throws -> [UInt8] {
        guard let module = module(named: name) else {
            throw PackageError.noSuchModule(path: path, name: name)
        }
        return try moduleData(module)
    }

    /// The code of `module` (one of `manifest.modules`), checked against its size and SHA-256.
    public func moduleData(_ module: Manifest.Module) throws -> [UInt8] {
        try entryData(path: module.path, size: module.size, sha256: module.sha256)
    }

    /// Every module's code, each checked against its size and SHA-256.
    ///
    /// Inflating and hashing is most of the cost of opening a large package, so the modules
    /// are split into contiguous runs of about equal size, one per core, each read on its own
    /// thread. Every module is read as `moduleData` reads it: from where the central directory
    /// puts it, after its local header is checked. When several entries are bad, the one
    /// first in the manifest's order is reported.
    public func allModules() throws -> [ModuleName: [UInt8]] {
        var seen: Set<String> = []
        let modules = manifest.modules.filter { seen.insert($0.path).inserted }
        let groups = Self.splitBySize(modules, into: min(ProcessInfo.processInfo.activeProcessorCount, 8))
        let outcomes = ModuleOutcomes(count: groups.count)
        let read: @Sendable (Int) -> Void = { [self] group in
            var code: [(ModuleName, [UInt8])] = []
            do {
                for module in groups[group] {
                    code.append(
                        (module.name, try listed.data(path: module.path, size: module.size, sha256: module.sha256)))
                }
                outcomes.set(group, .success(code))
            } catch {
                outcomes.set(group, .failure(error))
            }
        }
        if groups.count == 1 {
            read(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: groups.count, execute: read)
        }
        var result: [ModuleName: [UInt8]] = [:]
        result.reserveCapacity(modules.count)
        for outcome in outcomes.all {
            for (name, bytes) in try outcome.get() { result[name] = bytes }
        }
        return result
    }

    /// `modules` cut into at most `count` contiguous runs of about equal total size.
    static func splitBySize(_ modules: [Manifest.Module], into count: Int) -> [[Manifest.Module]] {
        let total = modules.reduce(Int64(0)) { $0 + max($1.size, 0) }
        // Below ~256 KiB a second handle costs more (opening, reading the central directory)
        // than it saves.
        let parts = max(1, min(count, modules.count, Int(total / (256 * 1024)) + 1))
        if parts == 1 { return [modules] }
        var groups: [[Manifest.Module]] = []
        var current: [Manifest.Module] = []
        var done: Int64 = 0
        for module in modules {
            current.append(module)
            done += max(module.size, 0)
            if groups.count < parts - 1, done * Int64(parts) >= total * Int64(groups.count + 1) {
                groups.append(current)
                current = []
            }
        }
        if !current.isEmpty || groups.isEmpty { groups.append(current) }
        return groups
    }

    /// The bytes of resource `key`, checked against its size and SHA-256. Resources are never
    /// read at open, only here.
    public func resourceData(_ key: ResourceKey) throws -> [UInt8] {
        guard let resource = resource(key) else { throw PackageError.noSuchResource(path: path, key: key) }
        return try resourceData(resource)
    }

    /// The bytes of `resource` (one of `manifest.resources`), checked against its size and SHA-256.
    public func resourceData(_ resource: Manifest.Resource) throws -> [UInt8] {
        try entryData(path: resource.path, size: resource.size, sha256: resource.sha256)
    }

    /// Every problem with the package: each entry's bytes against its size and SHA-256, and
    /// the identifier when one is expected. (The rules checked at open already held, or the
    /// reader would not exist.) Reads every entry once, exactly as `moduleData` and
    /// `resourceData` read it, in chunks: memory stays flat however large the resources are.
    public func verify(expectedIdentifier: PackageIdentifier? = nil) -> [PackageProblem] {
        var problems: [PackageProblem] = []
        if let expectedIdentifier, expectedIdentifier != manifest.identifier {
            problems.append(
                PackageProblem(
                    .identifierMismatch, entry: Manifest.entryName,
                    message: "the package is \(manifest.identifier), not \(expectedIdentifier)"))
        }
        problems += listed.contentProblems()
        return problems
    }

    /// Every problem with the package at `url`, whether or not it opens: what
    /// `flowpkg verify` reports. Empty when the package is sound.
    public static func verify(
        at url: URL, expectedIdentifier: PackageIdentifier? = nil,
        limits: PackageLimits = .default
    ) -> [PackageProblem] {
        let index: PackageIndex
        do {
            index = try PackageIndex.load(path: url.path, limits: limits)
        } catch {
            return error.problems
        }
        var problems = index.problems
        if let expectedIdentifier, expectedIdentifier != index.manifest.identifier {
            problems.insert(
                PackageProblem(
                    .identifierMismatch, entry: Manifest.entryName,
                    message: "the package is \(index.manifest.identifier), not \(expectedIdentifier)"), at: 0)
        }
        // Entries the index already found wrong (duplicated, wrong size) are not read again.
        let flagged = Set(index.problems.compactMap(\.entry))
        problems += ListedEntries(index, packagePath: url.path).contentProblems(skipping: flagged)
        return problems
    }

    /// One entry's bytes, read on its own from where the central directory puts it, and
    /// checked against its size and SHA-256.
    private func entryData(path: String, size: Int64, sha256: String) throws -> [UInt8] {
        try listed.data(path: path, size: size, sha256: sha256)
    }
}

/// Each worker's result of `allModules`, written once per slot from its own thread.
private final class ModuleOutcomes: Sendable {
    private let slots: Locked<[Result<[(ModuleName, [UInt8])], any Error>?]>

    init(count: Int) { slots = Locked(Array(repeating: nil, count: count)) }

    func set(_ index: Int, _ outcome: Result<[(ModuleName, [UInt8])], any Error>) {
        slots.withLock { $0[index] = outcome }
    }

    var all: [Result<[(ModuleName, [UInt8])], any Error>] {
        slots.withLock { $0.compactMap { $0 } }
    }
}
