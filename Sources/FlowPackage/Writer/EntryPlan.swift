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

/// One entry the writer will store, before any byte of it is read.
struct PlannedEntry: Sendable {
    enum Kind: Sendable { case module(ModuleName), resource(ResourceKey), script }

    var path: String
    var file: URL
    var kind: Kind
    var compression: EntryCompression
    /// The bytes the caller already read (`PackageInput.Module.contents`); nil reads `file`.
    var contents: [UInt8]? = nil
}

/// What hashing learned about one input: its size, its SHA-256 and, for a small file, its
/// bytes, kept so the file is read only once.
struct HashedEntry: Sendable {
    var size: Int64
    var sha256: String
    var retained: [UInt8]?
}

extension PackageInput {
    /// The entries in package order (sorted by UTF-8 path), after checking that every path is
    /// one the reader accepts, that no name or path is used twice, that the start module is
    /// among the modules and that the names are not empty. `output` is only for messages.
    func plannedEntries(output: String, limits: PackageLimits) throws(PackageError) -> [PlannedEntry] {
        if name.isEmpty {
            throw .invalidInput(path: output, entry: Manifest.entryName, reason: "the package name is empty")
        }
        if version.isEmpty {
            throw .invalidInput(path: output, entry: Manifest.entryName, reason: "the package version is empty")
        }
        var entries: [PlannedEntry] = []
        var moduleNames: Set<ModuleName> = []
        for module in modules {
            let path = PackagePath.modulePath(relativePath: module.relativePath)
            if let reason = PackagePath.problem(in: path) {
                throw .invalidInput(path: output, entry: path, reason: reason)
            }
            guard PackagePath.modulePaths(for: module.name).contains(path) else {
                throw .invalidInput(
                    path: output, entry: path,
                    reason: "module \(module.name) must be stored at \(PackagePath.modulePaths(for: module.name)[0])")
            }
            guard moduleNames.insert(module.name).inserted else {
                throw .invalidInput(path: output, entry: path, reason: "module \(module.name) is given twice")
            }
            entries.append(
                PlannedEntry(
                    path: path, file: module.file, kind: .module(module.name), compression: .deflate,
                    contents: module.contents))
        }
        var keys: Set<ResourceKey> = []
        for resource in resources {
            let path = PackagePath.resourcePath(for: resource.key)
            if let reason = PackagePath.problem(in: path) {
                throw .invalidInput(path: output, entry: path, reason: reason)
            }
            guard keys.insert(resource.key).inserted else {
                throw .invalidInput(path: output, entry: path, reason: "resource \(resource.key) is given twice")
            }
            entries.append(
                PlannedEntry(
                    path: path, file: resource.file, kind: .resource(resource.key),
                    compression: EntryCompression.forEntry(path)))
        }
        for script in scripts {
            let path = PackagePath.scriptPath(relativePath: script.relativePath)
            if let reason = PackagePath.problem(in: path) {
                throw .invalidInput(path: output, entry: path, reason: reason)
            }
            guard path.hasSuffix(".lua") else {
                throw .invalidInput(path: output, entry: path, reason: "a script's name must end in .lua")
            }
            entries.append(
                PlannedEntry(
                    path: path, file: script.file, kind: .script, compression: .deflate, contents: script.contents))
        }
        entries.sort { PackagePath.precedes($0.path, $1.path) }
        for (previous, next) in zip(entries, entries.dropFirst()) where previous.path == next.path {
            throw .invalidInput(path: output, entry: next.path, reason: "two inputs would be stored at the same path")
        }
        if let startModule, !moduleNames.contains(startModule) {
            throw .invalidInput(
                path: output, entry: nil, reason: "the start module \(startModule) is not among the modules")
        }
        if entries.count + 1 > limits.maxEntries {
            throw .invalidInput(
                path: output, entry: nil,
                reason: "\(entries.count) modules and resources; a package holds at most \(limits.maxEntries - 1)")
        }
        return entries
    }
}

extension PlannedEntry {
    /// Throws when the hashed size passes the reader's limits for this kind of entry.
    func checkSize(_ size: Int64, output: String, limits: PackageLimits) throws(PackageError) {
        let limit: Int64
        switch kind {
        case .module, .script: limit = limits.maxModuleBytes
        case .resource: limit = limits.maxResourceBytes
        }
        if size > limit {
            throw .invalidInput(
                path: output, entry: path, reason: "\(file.path) is \(size) bytes; the limit is \(limit)")
        }
    }
}
