import FlowSupport

/// A checked manifest whose entry lists may still be in its bytes (`ManifestTable`): they
/// become `Manifest.Module`s and `Manifest.Resource`s only when `manifest` is first read, so
/// opening a package to run one module of thousands never makes the others.
final class DecodedManifest: Sendable {
    /// Every field but the entry lists, which are empty here when `table` holds them (and
    /// complete when there is no table).
    let header: Manifest
    let table: ManifestTable?
    private let whole: Locked<Manifest?>

    init(header: Manifest, table: ManifestTable) {
        self.header = header
        self.table = table
        whole = Locked(nil)
    }

    init(manifest: Manifest) {
        header = manifest
        table = nil
        whole = Locked(manifest)
    }

    /// The whole manifest, made from the table the first time it is asked for.
    var manifest: Manifest {
        whole.withLock { whole in
            if let whole { return whole }
            var manifest = header
            if let table { (manifest.modules, manifest.resources) = table.lists() }
            whole = manifest
            return manifest
        }
    }

    var moduleCount: Int { table?.modules.count ?? header.modules.count }
    var resourceCount: Int { table?.resources.count ?? header.resources.count }

    /// Where the module (or resource) stored at `path` is in its list: a binary search in
    /// byte order, so only for lists sorted that way (an archive in the manifest's order).
    func position(ofPath path: String, resources: Bool) -> Int? {
        if let table { return table.position(ofPath: path, resources: resources) }
        return resources
            ? Self.position(of: path, in: header.resources, \.path)
            : Self.position(of: path, in: header.modules, \.path)
    }

    /// Where the script at `path` is in the manifest's sorted scripts list (a package in the
    /// writer's order holds them sorted), found by binary search.
    func scriptPosition(ofPath path: String) -> Int? {
        Self.position(of: path, in: header.scripts, \.path)
    }

    func module(at position: Int) -> Manifest.Module { table?.module(at: position) ?? header.modules[position] }
    func resource(at position: Int) -> Manifest.Resource { table?.resource(at: position) ?? header.resources[position] }

    private static func position<Item>(of path: String, in items: [Item], _ itemPath: (Item) -> String) -> Int? {
        var low = 0
        var high = items.count
        while low < high {
            let middle = (low + high) / 2
            let candidate = itemPath(items[middle])
            if PackagePath.sameBytes(candidate, path) { return middle }
            if PackagePath.precedes(candidate, path) { low = middle + 1 } else { high = middle }
        }
        return nil
    }
}
