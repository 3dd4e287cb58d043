/// The entries a package's manifest lists, found through the zip's central directory and
/// opened one at a time: the one way every reader of entry bytes reaches them (the loader's
/// `moduleData` and `resourceData`, `allModules`, `verify` and `run --verify-all`), so that
/// "verify passed" means the loader serves every entry.
struct ListedEntries: Sendable {
    let decoded: DecodedManifest
    let directory: ZipCentralDirectory
    let locations: EntryLocations
    /// The package's path, for messages.
    let packagePath: String

    init(_ index: PackageIndex, packagePath: String) {
        decoded = index.decoded
        directory = index.directory
        locations = index.locations
        self.packagePath = packagePath
    }

    /// The central directory record of the listed entry at `path`; nil when the archive has
    /// no single regular entry of that name (which the index already reported).
    func record(of path: String) -> Int? {
        switch locations {
        case .byPath(let table):
            return table[path]
        case .inManifestOrder(let first):
            if let position = decoded.position(ofPath: path, resources: false) { return first + position }
            if let position = decoded.position(ofPath: path, resources: true) {
                return first + decoded.moduleCount + position
            }
            if let position = decoded.scriptPosition(ofPath: path) {
                return first + decoded.moduleCount + decoded.resourceCount + position
            }
            return nil
        }
    }

    /// A stream of the entry at `path`'s bytes, read from where the central directory puts
    /// them after its local header was checked against the directory.
    func open(_ path: String) throws(PackageError) -> ZipEntryStream {
        guard let index = record(of: path) else {
            throw .corruptEntry(path: packagePath, entry: path, reason: "is missing from the archive")
        }
        return try open(path, record: index)
    }

    private func open(_ path: String, record index: Int) throws(PackageError) -> ZipEntryStream {
        do {
            return try directory.stream(forEntry: index, path: packagePath)
        } catch {
            throw .corruptEntry(path: packagePath, entry: path, reason: "cannot be read: \(error.message)")
        }
    }

    /// The entry's bytes, checked against its size and SHA-256.
    func data(path: String, size: Int64, sha256: String) throws(PackageError) -> [UInt8] {
        try open(path).checkedData(entry: path, declaredSize: size, sha256: sha256)
    }

    /// Every problem with the listed entries' bytes, each read exactly as `data` reads it (in
    /// chunks: memory stays flat however large they are). Entries with no record of their
    /// own (missing, duplicated, not regular: already reported by the index) are skipped, and
    /// so are those in `skipping` (found wrong already).
    func contentProblems(skipping: Set<String> = []) -> [PackageProblem] {
        var problems: [PackageProblem] = []
        var checked = skipping
        for entry in decoded.manifest.entries where checked.insert(entry.path).inserted {
            guard let index = record(of: entry.path) else { continue }
            do {
                try open(entry.path, record: index).checkedContents(
                    entry: entry.path, declaredSize: entry.size, sha256: entry.sha256, sink: nil)
            } catch {
                problems += error.problems
            }
        }
        return problems
    }
}
