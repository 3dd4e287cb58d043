import FlowJSON

extension Manifest {
    /// Parses and checks `manifest.json`'s bytes: JSON syntax (depth-limited), every field
    /// present with the right type, names that follow their rules, entry paths that are safe
    /// and where the format puts them, no entry or name listed twice, the start module among
    /// the modules, sizes within `limits`, and a digest that matches the listed entries.
    ///
    /// Throws `PackageError.invalidManifest` with every problem found, each naming
    /// `manifest.json` (and the module or resource concerned).
    public static func decode(_ bytes: [UInt8], packagePath: String, limits: PackageLimits = .default)
        throws(PackageError) -> Manifest
    {
        try decodeChecked(bytes, packagePath: packagePath, limits: limits).manifest
    }

    /// `decode`, with the entry lists of a manifest in the writer's layout left in its bytes
    /// (`ManifestTable`) until they are asked for: what opening a package uses.
    static func decodeChecked(_ bytes: [UInt8], packagePath: String, limits: PackageLimits)
        throws(PackageError) -> DecodedManifest
    {
        var decoder = ManifestDecoder(limits: limits)
        if let canonical = CanonicalManifest(bytes) {
            // The writer's own layout, read without a JSON tree; the same rules are checked.
            let decoded = decoder.decode(canonical)
            decoder.finish()
            guard let decoded, decoder.problems.isEmpty else {
                throw .invalidManifest(path: packagePath, problems: decoder.problems)
            }
            return decoded
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes, maxDepth: limits.maxManifestDepth)
        } catch {
            throw .invalidManifest(
                path: packagePath,
                problems: [
                    PackageProblem(
                        .invalidManifest, entry: entryName,
                        message: "not valid JSON at byte \(error.offset): \(error.message)")
                ])
        }
        let manifest = decoder.decode(root)
        decoder.finish()
        guard let manifest, decoder.problems.isEmpty else {
            throw .invalidManifest(path: packagePath, problems: decoder.problems)
        }
        return DecodedManifest(manifest: manifest)
    }
}
