#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Writes a `.luapkg`: `manifest.json` first, then every module and resource sorted by path.
///
/// The output is reproducible: it depends only on the input's names and bytes and on
/// `options.timestamp`, never on file times, the working directory, listing order or the
/// time zone (owner 0, mode 0644, raw deflate at `ArchiveWriter.compressionLevel` through
/// the system zlib, already compressed types stored). `ZipWriter` lays the zip out itself so
/// that entries can be deflated on every core and only appended in order. It is atomic: bytes go to a temporary file beside `output`,
/// which is renamed into place only when complete; on any failure or cancellation the
/// temporary file is removed and whatever was at `output` is untouched.
public enum PackageWriter {
    /// Writes `input` to `output` and returns the manifest it wrote.
    /// Throws `PackageError` naming the input file or entry concerned.
    @discardableResult
    public static func write(_ input: PackageInput, to output: URL, options: PackageWriteOptions = .init(),
                             limits: PackageLimits = .default) throws -> Manifest {
        let outputPath = output.path
        let planned = try input.plannedEntries(output: outputPath, limits: limits)
        try checkOutputLocation(output)
        let sizes = planned.map { fileSize($0.file) }
        let progress = ProgressCounter(total: 2 * sizes.reduce(0, +), callback: options.progress)
        let hashed = try InputHashing.hashAll(planned, keep: InputHashing.keptInMemory(sizes: sizes), progress: progress,
                                              cancellation: options.cancellation, output: outputPath)
        var totalModuleBytes: Int64 = 0
        for (entry, facts) in zip(planned, hashed) {
            try entry.checkSize(facts.size, output: outputPath, limits: limits)
            if case .module = entry.kind { totalModuleBytes += facts.size }
        }
        if totalModuleBytes > limits.maxTotalModuleBytes {
            throw PackageError.invalidInput(path: outputPath, entry: nil,
                                            reason: "the modules add up to \(totalModuleBytes) bytes; the limit is \(limits.maxTotalModuleBytes)")
        }
        let manifest = makeManifest(input, planned: planned, hashed: hashed)
        let manifestBytes = manifest.jsonBytes()
        if Int64(manifestBytes.count) > limits.maxManifestBytes {
            throw PackageError.invalidInput(path: outputPath, entry: Manifest.entryName,
                                            reason: "the manifest would be \(manifestBytes.count) bytes; the limit is \(limits.maxManifestBytes)")
        }

        let temporary = try TemporaryOutput(beside: output)
        defer { temporary.removeIfLeft() }
        try writeArchive(at: temporary.path, output: outputPath, manifestBytes: manifestBytes, planned: planned,
                         hashed: hashed, options: options, progress: progress)
        if options.cancellation?.isCancelled == true { throw PackageError.cancelled(path: outputPath) }
        try temporary.moveIntoPlace()
        return manifest
    }

    /// Appends the manifest, then every entry in order. Entries up to 4 MiB were deflated by
    /// the compression pool's workers meanwhile; larger ones are read by the feed thread and
    /// deflated here as they stream in.
    private static func writeArchive(at path: String, output: String, manifestBytes: [UInt8], planned: [PlannedEntry],
                                     hashed: [HashedEntry], options: PackageWriteOptions,
                                     progress: ProgressCounter) throws {
        let pool = CompressionPool(entries: zip(planned, hashed).map { ($0, $1) },
                                   workers: ProcessInfo.processInfo.activeProcessorCount)
        defer { pool.stop() }
        let feed = EntryFeed(entries: zip(planned, hashed).filter { !CompressionPool.handles(size: $0.1.size) },
                             cancellation: options.cancellation, output: output)
        defer { feed.abandon() }
        let timestamp = min(max(options.timestamp, PackageWriteOptions.defaultTimestamp), PackageWriteOptions.latestTimestamp)
        do {
            let writer = try ZipWriter(path: path, timestamp: timestamp)
            let deflater = try Deflater()
            let manifestDeflated = try manifestBytes.withUnsafeBytes { try deflater.deflate($0) }
            try manifestDeflated.withUnsafeBytes { raw in
                try writer.addEntry(name: Manifest.entryName, method: .deflate,
                                    crc: manifestBytes.withUnsafeBytes { Deflater.crc32(0, $0) },
                                    size: Int64(manifestBytes.count), data: raw)
            }
            for (index, (entry, facts)) in zip(planned, hashed).enumerated() {
                if options.cancellation?.isCancelled == true { throw PackageError.cancelled(path: output) }
                if CompressionPool.handles(size: facts.size) {
                    let result = try pool.result(at: index)
                    try result.data.withUnsafeBytes { raw in
                        try writer.addEntry(name: entry.path, method: entry.compression, crc: result.crc, size: facts.size, data: raw)
                    }
                    progress.add(facts.size)
                    continue
                }
                try writer.beginEntry(name: entry.path, method: entry.compression)
                feeding: while true {
                    switch feed.receive() {
                    case .chunk(let bytes):
                        try bytes.withUnsafeBytes { try writer.write($0) }
                        progress.add(Int64(bytes.count))
                    case .end: break feeding
                    case .failure(let error): throw error
                    }
                }
                try writer.finishEntry()
            }
            try writer.close()
        } catch let error as PackageError {
            throw error
        } catch let error as ZipWriterError {
            throw PackageError.writeFailed(path: output, reason: error.reason)
        } catch let error as ZlibError {
            throw PackageError.writeFailed(path: output, reason: error.description)
        }
    }

    private static func makeManifest(_ input: PackageInput, planned: [PlannedEntry], hashed: [HashedEntry]) -> Manifest {
        var modules: [Manifest.Module] = []
        var resources: [Manifest.Resource] = []
        for (entry, facts) in zip(planned, hashed) {
            switch entry.kind {
            case .module(let name):
                modules.append(Manifest.Module(name: name, path: entry.path, size: facts.size, sha256: facts.sha256))
            case .resource(let key):
                resources.append(Manifest.Resource(key: key, path: entry.path, size: facts.size, sha256: facts.sha256))
            }
        }
        var manifest = Manifest(identifier: input.identifier, name: input.name, version: input.version,
                                startModule: input.startModule, modules: modules, resources: resources, digest: "")
        manifest.digest = manifest.computedDigest
        return manifest
    }

    /// Refuses an output that is a folder, or whose folder is missing, before any work is done.
    private static func checkOutputLocation(_ output: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: output.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw PackageError.outputUnwritable(path: output.path, reason: "it is a folder")
        }
        let folder = output.deletingLastPathComponent().path
        if !FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) || !isDirectory.boolValue {
            throw PackageError.outputUnwritable(path: output.path, reason: "the folder \(folder) does not exist")
        }
    }

    /// The size `stat` gives, or 0 when it fails (reading the file will then say why).
    private static func fileSize(_ url: URL) -> Int64 {
        var info = stat()
        return stat(url.path, &info) == 0 ? Int64(info.st_size) : 0
    }
}

/// A temporary file beside the output: created exclusively, renamed over the output when
/// complete, removed otherwise.
private final class TemporaryOutput {
    let path: String
    private let output: String
    private var moved = false

    init(beside output: URL) throws {
        self.output = output.path
        let folder = output.deletingLastPathComponent().path
        var attempt = 0
        while true {
            let candidate = "\(folder)/.\(output.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
            let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if descriptor >= 0 {
                close(descriptor)
                path = candidate
                return
            }
            attempt += 1
            if errno != EEXIST || attempt > 16 {
                throw PackageError.outputUnwritable(path: output.path,
                                                    reason: "cannot create a file in \(folder): \(String(cString: strerror(errno)))")
            }
        }
    }

    func moveIntoPlace() throws {
        if rename(path, output) != 0 {
            throw PackageError.outputUnwritable(path: output, reason: String(cString: strerror(errno)))
        }
        moved = true
    }

    func removeIfLeft() {
        if !moved { unlink(path) }
    }
}
