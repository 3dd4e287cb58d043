/// A package's manifest and its archive's entry list, checked against each other without
/// reading any entry but the manifest.
///
/// `load` throws only when there is nothing to check against (no zip, no manifest); every
/// other finding becomes a problem, so `verify` can report them all and `PackageReader`
/// can refuse the package if there is any.
struct PackageIndex {
    var manifest: Manifest
    /// Where the manifest lists each entry: path → (size, sha256).
    var listed: [String: (size: Int64, sha256: String)]
    var problems: [PackageProblem]
    /// `manifest.json`'s exact bytes: what a signature covers.
    var manifestBytes: [UInt8] = []
    /// The second entry `manifest.sig`: nil when absent, `.some(nil)` when it is not a signature.
    var signature: PackageSignature?? = nil

    static func load(path: String, limits: PackageLimits) throws(PackageError) -> PackageIndex {
        let reader = try openArchive(path: path, limits: limits)
        let (manifest, manifestBytes) = try readManifestAndBytes(from: reader, path: path, limits: limits)
        var signature: PackageSignature?? = nil
        var listed: [String: (size: Int64, sha256: String)] = [:]
        for entry in manifest.entries { listed[entry.path] = (entry.size, entry.sha256) }

        var problems = rawNameProblems(path: path)
        var seen: [String: Int] = [Manifest.entryName: 1]
        var order: [String] = []
        var count = 1
        while true {
            let info: ArchiveEntryInfo?
            do { info = try reader.nextEntry() } catch {
                problems.append(PackageProblem(entry: nil, message: "the archive is damaged: \(archiveMessage(error))"))
                break
            }
            guard let info else { break }
            count += 1
            if count > limits.maxEntries { throw .tooManyEntries(path: path, count: count, limit: limits.maxEntries) }
            let name = info.path
            seen[name, default: 0] += 1
            if seen[name] == 2 { order.append(name) }
            if seen[name]! > 1 { continue }
            // The one entry the manifest does not list: its signature, right after it.
            if count == 2, name == PackageSignature.entryName, info.kind == .regular {
                if let size = info.size, size > PackageSignature.maxBytes {
                    problems.append(PackageProblem(entry: name, message: "is \(size) bytes; a signature is at most \(PackageSignature.maxBytes)"))
                    continue
                }
                do {
                    signature = .some(PackageSignature(bytes: try reader.boundedData(entry: name, limit: PackageSignature.maxBytes)))
                } catch {
                    problems.append(PackageProblem(entry: name, message: "cannot be read: \(error)"))
                }
                continue
            }
            if let reason = PackagePath.problem(in: name) {
                problems.append(PackageProblem(entry: name.isEmpty ? nil : name, message: reason))
                continue
            }
            switch info.kind {
            case .regular: break
            case .directory: problems.append(PackageProblem(entry: name, message: "is a directory; a package holds only files")); continue
            case .symlink: problems.append(PackageProblem(entry: name, message: "is a symbolic link; a package holds only regular files")); continue
            case .other: problems.append(PackageProblem(entry: name, message: "is not a regular file; a package holds only regular files")); continue
            }
            guard let expected = listed[name] else {
                problems.append(PackageProblem(entry: name, message: "is in the archive but not listed in the manifest"))
                continue
            }
            if let size = info.size, size != expected.size {
                problems.append(PackageProblem(entry: name, message: "the archive declares \(size) bytes; the manifest lists \(expected.size)"))
            }
        }
        for name in order {
            problems.append(PackageProblem(entry: name, message: "appears \(seen[name]!) times in the archive; a package holds each entry once"))
        }
        for entry in manifest.entries where seen[entry.path] == nil {
            problems.append(PackageProblem(entry: entry.path, message: "is listed in the manifest but missing from the archive"))
        }
        if problems.count > 100 {
            let more = problems.count - 100
            problems.removeLast(more)
            problems.append(PackageProblem(entry: nil, message: "and \(more) more problems"))
        }
        return PackageIndex(manifest: manifest, listed: listed, problems: problems, manifestBytes: manifestBytes,
                            signature: signature)
    }

    /// Names stored with a backslash: libarchive hands them over with slashes, so they are
    /// looked for in the raw central directory (already bounded by `openArchive`'s checks).
    private static func rawNameProblems(path: String) -> [PackageProblem] {
        guard let file = try? ZipFile(path: path), let end = try? file.endRecord(),
              let names = try? file.centralDirectoryNames(end) else { return [] }
        return names.filter { $0.contains(0x5C) }.map {
            PackageProblem(entry: String(decoding: $0, as: UTF8.self), message: "the entry name contains a backslash")
        }
    }

    /// Opens the archive after checking its end record: the entry count and the central
    /// directory's size are refused before libarchive allocates anything for them.
    static func openArchive(path: String, limits: PackageLimits) throws(PackageError) -> ArchiveReader {
        let end: ZipEndRecord
        do {
            end = try ZipFile(path: path).endRecord()
        } catch {
            switch error {
            case .unreadable(let reason): throw .unreadable(path: path, reason: reason)
            case .notAZip(let reason): throw .notAPackage(path: path, reason: reason)
            }
        }
        if end.entryCount > UInt64(limits.maxEntries) {
            throw .tooManyEntries(path: path, count: Int(clamping: end.entryCount), limit: limits.maxEntries)
        }
        // A central directory record is 46 bytes plus a name (at most 1,024 bytes in a package)
        // plus extra fields; 2 KiB each is far more than any package needs.
        if end.directorySize > UInt64(limits.maxEntries) * 2048 {
            throw .notAPackage(path: path, reason: "its central directory is \(end.directorySize) bytes, far more than \(limits.maxEntries) entries need")
        }
        if end.entryCount == 0 { throw .manifestNotFirst(path: path, firstEntry: nil) }
        do {
            // Every entry the reader serves or verifies is checked against its SHA-256, so
            // libarchive's CRC-32 would only hash the same bytes a second time.
            return try ArchiveReader(path: path, checksCRC: false)
        } catch {
            throw .notAPackage(path: path, reason: archiveMessage(error))
        }
    }

    /// Reads the first entry, which must be `manifest.json`, within the manifest size limit.
    static func readManifest(from reader: ArchiveReader, path: String, limits: PackageLimits) throws(PackageError) -> Manifest {
        try readManifestAndBytes(from: reader, path: path, limits: limits).manifest
    }

    /// The manifest and the exact bytes it was decoded from.
    static func readManifestAndBytes(from reader: ArchiveReader, path: String,
                                     limits: PackageLimits) throws(PackageError) -> (manifest: Manifest, bytes: [UInt8]) {
        let first: ArchiveEntryInfo?
        do { first = try reader.nextEntry() } catch {
            throw .notAPackage(path: path, reason: archiveMessage(error))
        }
        guard let first else { throw .manifestNotFirst(path: path, firstEntry: nil) }
        guard first.path == Manifest.entryName else { throw .manifestNotFirst(path: path, firstEntry: first.path) }
        guard first.kind == .regular else {
            throw .invalidManifest(path: path, problems: [PackageProblem(entry: Manifest.entryName, message: "is not a regular file")])
        }
        if let size = first.size, size > limits.maxManifestBytes {
            throw .manifestTooLarge(path: path, size: size, limit: limits.maxManifestBytes)
        }
        let bytes = try reader.boundedData(entry: Manifest.entryName, limit: limits.maxManifestBytes)
        return (try Manifest.decode(bytes, packagePath: path, limits: limits), bytes)
    }
}
