#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport

/// Writes a `.luapkg`: `manifest.json` first, then every module and resource sorted by path.
///
/// The output is reproducible: it depends only on the input's names and bytes and on
/// `options.timestamp`, never on file times, the working directory or listing order (owner 0,
/// mode 0644, deflate at `ArchiveWriter.compressionLevel`, already compressed types stored),
/// all written through libarchive's zip writer. libarchive fills the zip's MS-DOS time fields
/// from the local time of `options.timestamp`; the `flowpkg` command runs in UTC, and a host
/// that needs byte-identical packages across time zones sets `TZ=UTC` too (the extended
/// timestamp field is UTC whatever the zone). It is atomic: bytes go to a temporary file beside `output`,
/// which is renamed into place only when complete; on any failure or cancellation the
/// temporary file is removed and whatever was at `output` is untouched.
public enum PackageWriter {
    /// Writes `input` to `output` and returns the manifest it wrote.
    /// Throws `PackageError` naming the input file or entry concerned.
    @discardableResult
    public static func write(
        _ input: PackageInput, to output: URL, options: PackageWriteOptions = .init(),
        limits: PackageLimits = .default
    ) throws -> Manifest {
        try writePackage(input, to: output, options: options, limits: limits).manifest
    }

    /// What `writePackage` wrote: the manifest, and the package file's size and SHA-256, taken
    /// from its bytes as they were written (the file is not read back).
    public struct Written: Sendable {
        public var manifest: Manifest
        public var bytes: Int64
        public var sha256: String
    }

    /// Writes `input` to `output` as `write` does, and returns the package file's size and
    /// SHA-256 with the manifest.
    public static func writePackage(
        _ input: PackageInput, to output: URL, options: PackageWriteOptions = .init(),
        limits: PackageLimits = .default
    ) throws -> Written {
        let outputPath = output.path
        var planned = try input.plannedEntries(output: outputPath, limits: limits)
        try checkOutputLocation(output)
        let sizes = planned.map { $0.contents.map { Int64($0.count) } ?? fileSize($0.file) }
        let total = sizes.reduce(0, +)
        let hashed = try InputHashing.hashAll(
            planned, keep: InputHashing.keptInMemory(sizes: sizes, inMemory: planned.map { $0.contents != nil }),
            progress: ProgressCounter(.hashing, total: total, callback: options.progress),
            cancellation: options.cancellation, output: outputPath)
        var totalModuleBytes: Int64 = 0
        for (entry, facts) in zip(planned, hashed) {
            try entry.checkSize(facts.size, output: outputPath, limits: limits)
            if case .module = entry.kind { totalModuleBytes += facts.size }
        }
        if totalModuleBytes > limits.maxTotalModuleBytes {
            throw PackageError.invalidInput(
                path: outputPath, entry: nil,
                reason: "the modules add up to \(totalModuleBytes) bytes; the limit is \(limits.maxTotalModuleBytes)")
        }
        let manifest = makeManifest(input, planned: planned, hashed: hashed)
        let manifestBytes = manifest.jsonBytes()
        if Int64(manifestBytes.count) > limits.maxManifestBytes {
            throw PackageError.invalidInput(
                path: outputPath, entry: Manifest.entryName,
                reason: "the manifest would be \(manifestBytes.count) bytes; the limit is \(limits.maxManifestBytes)")
        }

        let temporary = try TemporaryOutput.make(beside: output)
        defer { temporary.removeIfLeft() }
        var written = WrittenBytes()
        for pass in 1...2 {
            written = WrittenBytes()
            try writeArchive(
                at: temporary.path, output: outputPath, manifestBytes: manifestBytes, planned: planned,
                hashed: hashed, options: options, written: written,
                progress: ProgressCounter(
                    .writing, total: hashed.reduce(0) { $0 + $1.size }, callback: options.progress))
            if options.cancellation?.isCancelled == true { throw PackageError.cancelled(path: outputPath) }
            // An entry that deflated past the expansion a reader accepts (a large run of one
            // byte) is stored instead, in a second pass: rare, and the choice still depends
            // only on the entry's bytes, so the output stays reproducible.
            let overExpanded = Self.overExpandedEntries(temporary.path, limits: limits)
            if overExpanded.isEmpty || pass == 2 { break }
            for index in planned.indices where overExpanded.contains(planned[index].path) {
                planned[index].compression = .store
            }
        }
        try TemporaryOutput.moveIntoPlace(temporary)
        return Written(manifest: manifest, bytes: written.count, sha256: written.hasher.finalize().hexDigits)
    }

    /// The bytes of one pass's archive, counted and hashed as libarchive writes them.
    private final class WrittenBytes {
        var hasher = SHA256()
        var count: Int64 = 0
    }

    /// Appends the manifest, then every entry in order, through libarchive. Entries up to 4 MiB
    /// were read ahead by worker threads meanwhile; larger ones are read by the feed thread and
    /// streamed in chunks, so reading and hashing overlap with libarchive's deflate.
    private static func writeArchive(
        at path: String, output: String, manifestBytes: [UInt8], planned: [PlannedEntry],
        hashed: [HashedEntry], options: PackageWriteOptions, written: WrittenBytes,
        progress: ProgressCounter
    ) throws {
        let readAhead = ReadAhead(
            entries: zip(planned, hashed).map { ($0, $1) },
            workers: ProcessInfo.processInfo.activeProcessorCount)
        defer { readAhead.stop() }
        let feed = EntryFeed(
            entries: zip(planned, hashed).filter { !ReadAhead.handles(size: $0.1.size) },
            cancellation: options.cancellation, output: output)
        defer { feed.abandon() }
        let timestamp = min(
            max(options.timestamp, PackageWriteOptions.defaultTimestamp), PackageWriteOptions.latestTimestamp)
        func header(_ path: String, _ size: Int64, _ compression: EntryCompression) -> ArchiveEntryHeader {
            ArchiveEntryHeader(path: path, size: size, compression: compression, modificationTime: timestamp)
        }
        do {
            let writer = try ArchiveWriter(path: path) { bytes in
                written.hasher.update(bufferPointer: bytes)
                written.count += Int64(bytes.count)
            }
            // Stored, not deflated: every open reads the whole manifest before any Lua runs, and
            // inflating a large package's (400 KB for 2,000 modules) cost more than the rest of
            // reading it. It adds a few hundred kilobytes to a package of that size.
            try writer.addEntry(header(Manifest.entryName, Int64(manifestBytes.count), .store), bytes: manifestBytes)
            if let key = options.signingKey {
                let signature = PackageSignature(signing: manifestBytes, with: key).bytes
                try writer.addEntry(
                    header(PackageSignature.entryName, Int64(signature.count), .store), bytes: signature)
            }
            for (index, (entry, facts)) in zip(planned, hashed).enumerated() {
                if options.cancellation?.isCancelled == true { throw PackageError.cancelled(path: output) }
                if ReadAhead.handles(size: facts.size) {
                    let result = try readAhead.result(at: index)
                    try writer.addEntry(header(entry.path, facts.size, entry.compression), bytes: result.data)
                    progress.add(facts.size)
                    continue
                }
                try writer.beginEntry(header(entry.path, facts.size, entry.compression))
                feeding: while true {
                    switch feed.receive() {
                    case .chunk(let bytes):
                        try writer.write(bytes)
                        progress.add(Int64(bytes.count))
                    case .end: break feeding
                    case .failure(let error): throw error
                    }
                }
            }
            try writer.close()
        } catch let error as PackageError {
            throw error
        } catch let error as ArchiveError {
            throw PackageError.writeFailed(path: output, reason: error.message)
        }
    }

    private static func makeManifest(_ input: PackageInput, planned: [PlannedEntry], hashed: [HashedEntry]) -> Manifest
    {
        var modules: [Manifest.Module] = []
        var resources: [Manifest.Resource] = []
        var scripts: [Manifest.Script] = []
        for (entry, facts) in zip(planned, hashed) {
            switch entry.kind {
            case .module(let name):
                modules.append(Manifest.Module(name: name, path: entry.path, size: facts.size, sha256: facts.sha256))
            case .resource(let key):
                resources.append(Manifest.Resource(key: key, path: entry.path, size: facts.size, sha256: facts.sha256))
            case .script:
                scripts.append(Manifest.Script(path: entry.path, size: facts.size, sha256: facts.sha256))
            }
        }
        var manifest = Manifest(
            identifier: input.identifier, name: input.name, version: input.version,
            startModule: input.startModule, modules: modules, resources: resources, digest: "")
        manifest.externalModules = input.externalModules
        manifest.runtimeVersion = input.runtimeVersion
        manifest.scripts = scripts
        manifest.dependencies = input.dependencies.sorted { $0.name < $1.name }
        manifest.digest = manifest.computedDigest
        return manifest
    }

    /// The entries of the archive at `path` that expand more than `limits` let a reader accept.
    private static func overExpandedEntries(_ path: String, limits: PackageLimits) -> Set<String> {
        guard let file = try? ZipFile(path: path), let end = try? file.endRecord(),
            let directory = try? ZipCentralDirectory(file: file, end: end)
        else { return [] }
        return Set(PackageIndex.expansionProblems(directory, limits: limits).compactMap(\.entry))
    }

    /// Refuses an output that is a folder, or whose folder is missing, before any work is done.
    private static func checkOutputLocation(_ output: URL) throws {
        var isDirectory = false
        if FileManager.default.fileExists(atPath: output.path, isDirectory: &isDirectory), isDirectory {
            throw PackageError.outputUnwritable(path: output.path, reason: "it is a folder")
        }
        let folder = output.deletingLastPathComponent().path
        if !FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) || !isDirectory {
            throw PackageError.outputUnwritable(path: output.path, reason: "the folder \(folder) does not exist")
        }
    }

    /// The size `stat` gives, or 0 when it fails (reading the file will then say why).
    private static func fileSize(_ url: URL) -> Int64 {
        var info = stat()
        return stat(url.path, &info) == 0 ? Int64(info.st_size) : 0
    }
}

/// The package's temporary file: FlowSupport's `AtomicOutput`, its failures as `PackageError`.
enum TemporaryOutput {
    static func make(beside output: URL) throws(PackageError) -> AtomicOutput {
        do {
            return try AtomicOutput(beside: output)
        } catch {
            throw .outputUnwritable(path: output.path, reason: error.reason)
        }
    }

    static func moveIntoPlace(_ temporary: AtomicOutput) throws(PackageError) {
        do {
            try temporary.moveIntoPlace()
        } catch {
            throw .outputUnwritable(path: error.path, reason: error.reason)
        }
    }

    /// The PID in a temporary file's name (`.NAME.PID.RAND.tmp`), or nil for any other name.
    static func stalePID(_ name: String, prefix: String) -> pid_t? {
        AtomicOutput.stalePID(name, prefix: prefix)
    }
}
