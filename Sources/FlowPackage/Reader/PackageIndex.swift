/// Where each entry the manifest lists is in the archive's central directory.
enum EntryLocations: Sendable {
    /// The archive holds, from record `first` on, exactly the manifest's entries in the
    /// manifest's order (modules, then resources, all sorted by path as the writer puts
    /// them): entry `i` of `Manifest.entries` is record `first + i`, found by binary search.
    case inManifestOrder(first: Int)
    /// Any other order: the record of each entry found exactly once, by path.
    case byPath([String: Int])
}

/// A package's manifest and its archive's entry list, checked against each other without
/// reading any entry but the manifest.
///
/// `load` throws only when there is nothing to check against (no zip, no manifest); every
/// other finding becomes a problem, so `verify` can report them all and `PackageReader`
/// can refuse the package if there is any.
struct PackageIndex {
    var decoded: DecodedManifest
    var problems: [PackageProblem]
    /// The archive's central directory, through which single entries are read.
    var directory: ZipCentralDirectory
    /// Where each listed entry is in `directory`.
    var locations: EntryLocations
    /// `manifest.json`'s exact bytes: what a signature covers.
    var manifestBytes: [UInt8] = []
    /// The second entry `manifest.sig`: nil when absent, `.some(nil)` when it is not a signature.
    var signature: PackageSignature?? = nil

    /// The whole manifest (its entry lists made now if the table still holds them).
    var manifest: Manifest { decoded.manifest }

    static func listed(in manifest: Manifest) -> [String: (size: Int64, sha256: String)] {
        var listed: [String: (size: Int64, sha256: String)] = [:]
        listed.reserveCapacity(manifest.modules.count + manifest.resources.count)
        for module in manifest.modules { listed[module.path] = (module.size, module.sha256) }
        for resource in manifest.resources { listed[resource.path] = (resource.size, resource.sha256) }
        for script in manifest.scripts { listed[script.path] = (script.size, script.sha256) }
        return listed
    }

    /// Reads the end record, the central directory and the manifest (the only entry read),
    /// and checks the entry list against the manifest: nothing else of the archive is read.
    /// `folder`: the package is the file `name` in that open folder (`path` still names it).
    static func load(path: String, limits: PackageLimits, folder: (descriptor: Int32, name: String)? = nil)
        throws(PackageError) -> PackageIndex
    {
        let directory = try openDirectory(path: path, limits: limits, folder: folder)
        let (decoded, manifestBytes) = try readManifestAndBytes(from: directory, path: path, limits: limits)
        let expansion = expansionProblems(directory, limits: limits)
        if let first = firstRecordInManifestOrder(directory, decoded) {
            // The common case, every package flowpkg writes: one pass of comparisons, no table.
            var index = PackageIndex(
                decoded: decoded, problems: expansion, directory: directory,
                locations: .inManifestOrder(first: first), manifestBytes: manifestBytes)
            if first == 2 {
                let (signature, problem) = readSignature(directory.entries[1], from: directory, path: path)
                index.signature = signature
                if let problem { index.problems.append(problem) }
            }
            return index
        }
        return loadEntryByEntry(
            directory, decoded: decoded, manifestBytes: manifestBytes, problems: expansion, path: path)
    }

    /// An archive not in the writer's order: each entry looked at by name, every problem of
    /// the entry list collected (unsafe names and kinds, entries twice, unlisted or missing).
    private static func loadEntryByEntry(
        _ directory: ZipCentralDirectory, decoded: DecodedManifest, manifestBytes: [UInt8],
        problems expansion: [PackageProblem], path: String
    ) -> PackageIndex {
        let manifest = decoded.manifest
        let listed = listed(in: manifest)
        var signature: PackageSignature?? = nil
        var problems = expansion
        if let damage = directory.damage {
            problems.append(
                PackageProblem(.packageUnreadable, entry: nil, message: "the archive is damaged: \(damage)"))
        }
        var seen: [String: Int] = [:]
        seen.reserveCapacity(directory.entries.count)
        var entryIndex: [String: Int] = [:]
        entryIndex.reserveCapacity(directory.entries.count)
        var order: [String] = []
        for (index, info) in directory.entries.enumerated() {
            let name = directory.name(of: info)
            let count = (seen[name] ?? 0) + 1
            seen[name] = count
            if count == 2 { order.append(name); entryIndex[name] = nil }
            if count > 1 || index == 0 { if count == 1 { entryIndex[name] = index }; continue }
            // The one entry the manifest does not list: its signature, right after it.
            if index == 1, name == PackageSignature.entryName, info.kind == .regular {
                let (read, problem) = readSignature(info, from: directory, path: path)
                signature = read
                if let problem { problems.append(problem) }
                continue
            }
            if let problem = unsafeEntryProblem(name, kind: info.kind) {
                problems.append(problem)
                continue
            }
            guard let expected = listed[name] else {
                problems.append(
                    PackageProblem(
                        .entryNotListed, entry: name, message: "is in the archive but not listed in the manifest"))
                continue
            }
            entryIndex[name] = index
            if info.size != expected.size {
                problems.append(
                    PackageProblem(
                        .corruptEntry, entry: name,
                        message: "the archive declares \(info.size) bytes; the manifest lists \(expected.size)"))
            }
        }
        for name in order {
            problems.append(
                PackageProblem(
                    .entryNotListed, entry: name,
                    message: "appears \(seen[name, default: 0]) times in the archive; a package holds each entry once"
                ))
        }
        for entry in manifest.entries where seen[entry.path] == nil {
            problems.append(
                PackageProblem(
                    .entryNotListed, entry: entry.path,
                    message: "is listed in the manifest but missing from the archive"))
        }
        if problems.count > 100 {
            let more = problems.count - 100
            problems.removeLast(more)
            problems.append(PackageProblem(.moreProblems, entry: nil, message: "and \(more) more problems"))
        }
        return PackageIndex(
            decoded: decoded, problems: problems, directory: directory, locations: .byPath(entryIndex),
            manifestBytes: manifestBytes, signature: signature)
    }

    /// Why the entry `name` of `kind` cannot be in a package: an unsafe path, or not a regular file.
    private static func unsafeEntryProblem(_ name: String, kind: ArchiveEntryInfo.Kind) -> PackageProblem? {
        if let reason = PackagePath.problem(in: name) {
            return PackageProblem(.unsafeEntry, entry: name.isEmpty ? nil : name, message: reason)
        }
        switch kind {
        case .regular: return nil
        case .directory:
            return PackageProblem(.unsafeEntry, entry: name, message: "is a directory; a package holds only files")
        case .symlink:
            return PackageProblem(
                .unsafeEntry, entry: name, message: "is a symbolic link; a package holds only regular files")
        case .other:
            return PackageProblem(
                .unsafeEntry, entry: name, message: "is not a regular file; a package holds only regular files")
        }
    }

    /// Every entry whose declared size is more than `limits.maxExpansionRatio` times what it
    /// takes in the archive, past `limits.expansionAllowance` bytes: a zip bomb (a gigabyte
    /// of zeros deflates to a megabyte) is refused when the package is opened, from the
    /// central directory alone. Whatever an entry declares, reading it never inflates past
    /// that size, so this bounds what reading any entry costs by what the file holds.
    static func expansionProblems(_ directory: ZipCentralDirectory, limits: PackageLimits) -> [PackageProblem] {
        var problems: [PackageProblem] = []
        for entry in directory.entries where entry.size > limits.expansionAllowance {
            let packed = entry.compressedSize
            let ratio = limits.maxExpansionRatio
            let (bound, overflow) = packed.multipliedReportingOverflow(by: UInt64(ratio))
            if overflow || UInt64(entry.size) <= bound { continue }
            let name = directory.name(of: entry)
            problems.append(
                PackageProblem(
                    .packageLimitExceeded, entry: name.isEmpty ? nil : name,
                    message:
                        "declares \(entry.size) bytes packed in \(packed): more than the \(ratio)-fold expansion a "
                        + "package entry may have (entries over \(limits.expansionAllowance) bytes); refused as a zip bomb"
                ))
        }
        return problems
    }

    /// The record the listed entries start at when the archive holds, after `manifest.json`
    /// and an optional `manifest.sig` (a regular file), exactly the manifest's entries in the
    /// manifest's order (byte for byte), each a regular file of the listed size, with every
    /// path ASCII and after the one before it in byte order, in an undamaged central directory. The decoder has already
    /// checked every listed path, so such an archive has no unlisted, missing, duplicated or
    /// unsafe entry. Nil for any other archive, which `load` then checks entry by entry.
    static func firstRecordInManifestOrder(_ directory: ZipCentralDirectory, _ decoded: DecodedManifest) -> Int? {
        let entries = directory.entries
        guard directory.damage == nil, entries.count > 1 else { return nil }
        var first = 1
        if directory.name(of: entries[1]) == PackageSignature.entryName {
            guard entries[1].kind == .regular else { return nil }
            first = 2
        }
        let scripts = decoded.header.scripts
        guard entries.count == first + decoded.moduleCount + decoded.resourceCount + scripts.count else { return nil }
        if let table = decoded.table {
            // Every path in the table is ASCII and after the one before it already.
            var position = 0
            func holds(_ item: ManifestTable.Entry) -> Bool {
                let entry = entries[first + position]
                guard entry.kind == .regular, entry.size == item.size,
                    directory.withName(of: entry, { table.path(at: position, is: $0) })
                else { return false }
                position += 1
                return true
            }
            for item in table.modules where !holds(item) { return nil }
            for item in table.resources where !holds(item) { return nil }
            return holdsScripts(scripts, in: directory, from: first + position) ? first : nil
        }
        let manifest = decoded.header
        var position = first
        var previous: String?
        func holds(_ path: String, size: Int64) -> Bool {
            let entry = entries[position]
            guard entry.kind == .regular, entry.size == size, PackagePath.isASCII(path),
                PackagePath.sameBytes(directory.name(of: entry), path)
            else { return false }
            if let previous, !PackagePath.precedes(previous, path) { return false }
            previous = path
            position += 1
            return true
        }
        for module in manifest.modules where !holds(module.path, size: module.size) { return nil }
        for resource in manifest.resources where !holds(resource.path, size: resource.size) { return nil }
        for script in manifest.scripts where !holds(script.path, size: script.size) { return nil }
        return first
    }

    /// Whether the records from `start` on are the scripts, in the manifest's order: after the
    /// resources, as `scripts/` sorts after `resources/`.
    private static func holdsScripts(_ scripts: [Manifest.Script], in directory: ZipCentralDirectory, from start: Int)
        -> Bool
    {
        let entries = directory.entries
        var previous: String?
        for (offset, script) in scripts.enumerated() {
            let entry = entries[start + offset]
            guard entry.kind == .regular, entry.size == script.size, PackagePath.isASCII(script.path),
                PackagePath.sameBytes(directory.name(of: entry), script.path)
            else { return false }
            if let previous, !PackagePath.precedes(previous, script.path) { return false }
            previous = script.path
        }
        return true
    }

    /// Reads `manifest.sig` (record 1): the signature, or `.some(nil)` when the entry is not
    /// one, and the problem when it is too large or cannot be read.
    private static func readSignature(
        _ info: ZipDirectoryEntry, from directory: ZipCentralDirectory, path: String
    ) -> (PackageSignature??, PackageProblem?) {
        let name = PackageSignature.entryName
        if info.size > PackageSignature.maxBytes {
            return (
                nil,
                PackageProblem(
                    .untrustedSignature, entry: name,
                    message: "is \(info.size) bytes; a signature is at most \(PackageSignature.maxBytes)")
            )
        }
        do {
            let reader = try directory.stream(forEntry: 1, path: path)
            return (
                .some(PackageSignature(bytes: try reader.boundedData(entry: name, limit: PackageSignature.maxBytes))),
                nil
            )
        } catch {
            return (
                nil,
                PackageProblem(.untrustedSignature, entry: name, message: "cannot be read: \(archiveMessage(error))")
            )
        }
    }

    /// Checks the end record (the entry count and the central directory's size are refused
    /// before anything is allocated for them), then reads and parses the central directory.
    static func openDirectory(
        path: String, limits: PackageLimits, folder: (descriptor: Int32, name: String)? = nil
    ) throws(PackageError) -> ZipCentralDirectory {
        let file: ZipFile
        let end: ZipEndRecord
        do {
            if let folder {
                file = try ZipFile(name: folder.name, inFolder: folder.descriptor)
            } else {
                file = try ZipFile(path: path)
            }
            end = try file.endRecord()
        } catch {
            throw probeError(error, path: path)
        }
        try checkEndRecord(end, path: path, limits: limits)
        do {
            return try ZipCentralDirectory(file: file, end: end)
        } catch {
            throw probeError(error, path: path)
        }
    }

    private static func probeError(_ error: ZipProbeError, path: String) -> PackageError {
        switch error {
        case .unreadable(let reason): return .unreadable(path: path, reason: reason)
        case .notAZip(let reason): return .notAPackage(path: path, reason: reason)
        }
    }

    private static func checkEndRecord(_ end: ZipEndRecord, path: String, limits: PackageLimits) throws(PackageError) {
        if end.entryCount > UInt64(limits.maxEntries) {
            throw .tooManyEntries(path: path, count: Int(clamping: end.entryCount), limit: limits.maxEntries)
        }
        // A central directory record is 46 bytes plus a name (at most 1,024 bytes in a package)
        // plus extra fields; 2 KiB each is far more than any package needs.
        if end.directorySize > UInt64(limits.maxEntries) * 2048 {
            throw .notAPackage(
                path: path,
                reason:
                    "its central directory is \(end.directorySize) bytes, far more than \(limits.maxEntries) entries need"
            )
        }
        if end.entryCount == 0 { throw .manifestNotFirst(path: path, firstEntry: nil) }
    }

    /// Reads the first entry, which must be `manifest.json`, within the manifest size limit.
    static func readManifest(from directory: ZipCentralDirectory, path: String, limits: PackageLimits)
        throws(PackageError) -> Manifest
    {
        try readManifestAndBytes(from: directory, path: path, limits: limits).manifest.manifest
    }

    /// The manifest and the exact bytes it was decoded from.
    static func readManifestAndBytes(
        from directory: ZipCentralDirectory, path: String,
        limits: PackageLimits
    ) throws(PackageError) -> (manifest: DecodedManifest, bytes: [UInt8]) {
        guard let first = directory.entries.first else {
            if let damage = directory.damage { throw .notAPackage(path: path, reason: damage) }
            throw .manifestNotFirst(path: path, firstEntry: nil)
        }
        let firstName = directory.name(of: first)
        guard firstName == Manifest.entryName else { throw .manifestNotFirst(path: path, firstEntry: firstName) }
        guard first.kind == .regular else {
            throw .invalidManifest(
                path: path,
                problems: [
                    PackageProblem(.manifestNotFirst, entry: Manifest.entryName, message: "is not a regular file")
                ])
        }
        if first.size > limits.maxManifestBytes {
            throw .manifestTooLarge(path: path, size: first.size, limit: limits.maxManifestBytes)
        }
        let reader: ZipEntryStream
        do {
            reader = try directory.stream(forEntry: 0, path: path)
        } catch {
            throw .notAPackage(path: path, reason: error.message)
        }
        let bytes = try reader.boundedData(
            entry: Manifest.entryName, limit: limits.maxManifestBytes, expected: first.size)
        return (try Manifest.decodeChecked(bytes, packagePath: path, limits: limits), bytes)
    }
}
