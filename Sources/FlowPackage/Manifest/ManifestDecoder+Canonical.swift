// The canonical reader: a manifest in the writer's own layout (`CanonicalManifest`), whose
// fields need no type checks; the rules are the decoder's own (ManifestDecoder.swift).
extension ManifestDecoder {
    /// The writer's own layout, read by `CanonicalManifest`: every field is there with its
    /// type, so only the rules are left to check, in the same order and words as `decode(_:)`,
    /// and the digest is computed from entry lines copied from the manifest's bytes. Entries
    /// that `ManifestTable` takes stay in the bytes; otherwise each becomes `String`s and is
    /// checked as the JSON reader's are, which words every problem.
    mutating func decode(_ canonical: CanonicalManifest) -> DecodedManifest? {
        checkFormatVersion(canonical.formatVersion)
        let identifier = checkIdentifier(canonical.identifier)
        checkNotEmpty(canonical.name, "name")
        checkNotEmpty(canonical.version, "version")
        var startModule: ModuleName?
        var startModuleFieldOK = true
        if let text = canonical.startModule { (startModule, startModuleFieldOK) = checkStartModule(text) }
        checkLuaVersion(canonical.luaVersion)
        let runtimeVersion = canonical.runtimeVersion.flatMap { checkRuntimeVersion($0) }
        checkDigestField(canonical.digest)

        self.startModule = startModule
        var externalModules: [String] = []
        for (index, entry) in canonical.externalModules.enumerated() where checkExternalModule(index, entry) {
            externalModules.append(entry)
        }
        let table = ManifestTable(canonical, limits: limits, startModule: startModule)
        var modules: [Manifest.Module] = []
        var resources: [Manifest.Resource] = []
        var scripts: [Manifest.Script] = []
        if table == nil {
            modules.reserveCapacity(canonical.modules.count)
            for (index, entry) in canonical.modules.enumerated() {
                addModule(
                    index, nameText: canonical.text(entry.name), path: canonical.text(entry.path), size: entry.size,
                    sha: canonical.text(entry.sha256), to: &modules)
            }
            resources.reserveCapacity(canonical.resources.count)
            for (index, entry) in canonical.resources.enumerated() {
                addResource(
                    index, name: canonical.text(entry.name), type: canonical.text(entry.type),
                    path: canonical.text(entry.path), size: entry.size, sha: canonical.text(entry.sha256),
                    to: &resources)
            }
        }
        for (index, entry) in canonical.scripts.enumerated() {
            addScript(index, path: entry.path, size: entry.size, sha: entry.sha256, to: &scripts)
        }
        if table == nil {
            checkEntries(modules: modules, resources: resources, scripts: scripts.count, startModule: startModule)
        }
        checkScripts(scripts)

        guard let identifier, startModuleFieldOK else { return nil }
        var manifest = Manifest(
            formatVersion: Int(canonical.formatVersion), identifier: identifier, name: canonical.name,
            version: canonical.version, startModule: startModule, luaVersion: canonical.luaVersion,
            generator: canonical.generator, modules: modules, resources: resources, digest: canonical.digest)
        manifest.externalModules = externalModules
        manifest.runtimeVersion = runtimeVersion
        manifest.scripts = scripts
        // The entry lines hold every entry in the manifest's order; the digest text wants them
        // sorted by path, which they are when each list is (the writer's order, and always
        // when there is a table).
        let linesInOrder = table != nil || (modulesInOrder && resourcesInOrder && manifest.formatVersion >= 2)
        if linesInOrder {
            checkDigest(of: manifest) { Manifest.packageDigestBytes(header: manifest, entryLines: canonical) }
        } else {
            checkDigest(of: manifest) { manifest.computedDigest }
        }
        if let table { return DecodedManifest(header: manifest, table: table) }
        return DecodedManifest(manifest: manifest)
    }
}
