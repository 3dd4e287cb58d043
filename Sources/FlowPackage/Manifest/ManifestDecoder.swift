/// Turns a manifest into a `Manifest`, collecting every problem instead of stopping at the
/// first, so `verify` can report them all at once. Two readers share its rules (this file):
/// the tree reader takes any manifest as the JSON parser's tree (ManifestDecoder+Tree.swift),
/// the canonical reader one in the writer's own layout (ManifestDecoder+Canonical.swift).
struct ManifestDecoder {
    let limits: PackageLimits
    var problems: [PackageProblem] = []
    /// The start module, to look for among the modules as they are decoded.
    var startModule: ModuleName?
    /// Whether a module entry names the start module, even one refused for another reason,
    /// so one mistake does not also read as "the start module is missing".
    private var startModuleNamed = false
    /// Whether each list is sorted by path with no path twice, as the writer lists them:
    /// told as entries are decoded, so the duplicate checks need no table.
    var modulesInOrder = true
    var resourcesInOrder = true
    /// Whether every entry path (and so every name and key) is ASCII: without it, two names
    /// in strict byte order can still be equal to Swift (NFC and NFD), and only the counting
    /// tables, which compare as Swift does, find them.
    private var entriesASCII = true
    /// Where in the module list the modules stored as `…/init.lua` are.
    private var initModules: [Int] = []
    /// Problems past the first hundred are counted, not kept: a hostile manifest with a
    /// million bad entries must not turn into a million-line report.
    private var unreported = 0

    init(limits: PackageLimits) { self.limits = limits }

    mutating func problem(_ message: String) {
        if problems.count < 100 {
            problems.append(PackageProblem(.invalidManifest, entry: Manifest.entryName, message: message))
        } else {
            unreported += 1
        }
    }

    mutating func finish() {
        if unreported > 0 {
            problems.append(
                PackageProblem(.moreProblems, entry: Manifest.entryName, message: "and \(unreported) more problems"))
            unreported = 0
        }
    }

    // MARK: The rules, shared by both readers

    mutating func checkFormatVersion(_ formatVersion: Int64?) {
        if let formatVersion, !Manifest.readableFormatVersions.contains(where: { Int64($0) == formatVersion }) {
            problem(
                "format version \(formatVersion) is not supported: this flowpkg reads versions "
                    + "\(Manifest.readableFormatVersions.map(String.init).joined(separator: " and ")); "
                    + "use the flowpkg that wrote it, or export the project again")
        }
    }

    mutating func checkIdentifier(_ text: String?) -> PackageIdentifier? {
        guard let text else { return nil }
        do { return try PackageIdentifier(text) } catch {
            problem("\"identifier\": \(error)")
            return nil
        }
    }

    mutating func checkNotEmpty(_ text: String?, _ key: String) {
        if text?.isEmpty == true { problem("\"\(key)\" is empty") }
    }

    /// The start module and whether its field is sound.
    mutating func checkStartModule(_ text: String) -> (ModuleName?, Bool) {
        do { return (try ModuleName(text), true) } catch {
            problem("\"startModule\": \(error)")
            return (nil, false)
        }
    }

    mutating func checkLuaVersion(_ luaVersion: String?) {
        if let luaVersion, luaVersion != Manifest.currentLuaVersion {
            problem("the package targets Lua \(luaVersion); this flowpkg runs Lua \(Manifest.currentLuaVersion)")
        }
    }

    mutating func checkRuntimeVersion(_ text: String) -> String {
        if text.isEmpty || text.utf8.count > 64 { problem("\"runtimeVersion\" must be 1 to 64 characters") }
        return text
    }

    mutating func checkDigestField(_ digest: String?) {
        if let digest, !ManifestRules.isSHA256(digest) { problem("\"digest\" is not 64 lowercase hex digits") }
    }

    /// Whether `entry` may be `externalModules[index]`.
    mutating func checkExternalModule(_ index: Int, _ entry: String) -> Bool {
        guard let reason = Manifest.externalModuleProblem(entry) else { return true }
        problem("externalModules[\(index)] \"\(entry)\": \(reason)")
        return false
    }

    /// The listed digest against the one computed, once every other rule held.
    mutating func checkDigest(of manifest: Manifest, computed: () -> String) {
        guard problems.isEmpty else { return }
        let computed = computed()
        if computed != manifest.digest { digestMismatch(listed: manifest.digest, computed: computed) }
    }

    /// `checkDigest(of:computed:)` with the computed digest's bytes, compared with the listed
    /// hex as they are (no hex text made when they match).
    mutating func checkDigest(of manifest: Manifest, computedBytes: () -> [UInt8]) {
        guard problems.isEmpty else { return }
        let computed = computedBytes()
        if !computed.hasHexDigits(manifest.digest) {
            digestMismatch(listed: manifest.digest, computed: computed.hexDigits)
        }
    }

    private mutating func digestMismatch(listed: String, computed: String) {
        problem(
            "the digest does not match the manifest (listed \(listed), computed \(computed)): "
                + "the manifest was edited after it was written")
    }

    /// Checks script entry `index` and appends it to `scripts` when every rule holds: a safe
    /// path under `scripts/` ending in `.lua`, a size within the module limit, a SHA-256.
    mutating func addScript(
        _ index: Int, path: String, size: Int64, sha: String, to scripts: inout [Manifest.Script]
    ) {
        guard
            checkEntryFacts(
                place: "scripts[\(index)]", path: path, size: size, sha256: sha, limit: limits.maxModuleBytes)
        else { return }
        guard path.hasPrefix(PackagePath.scriptsFolder), path.hasSuffix(".lua"),
            path.utf8.count > PackagePath.scriptsFolder.utf8.count + 4
        else {
            problem("scripts[\(index)] is stored at \(path); a script must be scripts/<path>.lua")
            return
        }
        scripts.append(Manifest.Script(path: path, size: size, sha256: sha))
    }

    /// No script listed twice.
    mutating func checkScripts(_ scripts: [Manifest.Script]) {
        var seen = Set<String>()
        for script in scripts where !seen.insert(script.path).inserted {
            problem("\(script.path) is listed twice")
        }
    }

    /// Checks module entry `index` (its fields as read; nil ones were already reported) and
    /// appends it to `modules` when every rule holds.
    mutating func addModule(
        _ index: Int, nameText: String?, path: String?, size: Int64?, sha: String?, to modules: inout [Manifest.Module]
    ) {
        var name: ModuleName?
        if let nameText {
            do { name = try ModuleName(nameText) } catch { problem("modules[\(index)] \"name\": \(error)") }
        }
        if let name, name == startModule { startModuleNamed = true }
        guard let name, let path, let size, let sha else { return }
        // A module's own path (`modules/` and its name's parts) is safe by the name's rules
        // (no empty, `.` or `..` part, no backslash or control character); only its length
        // and any other path need the path check, which words the reason.
        let isOwnPath = PackagePath.isModulePath(path, for: name)
        guard
            checkEntryFacts(
                place: "module \(name.rawValue)", path: isOwnPath && path.utf8.count <= 1024 ? nil : path,
                size: size, sha256: sha, limit: limits.maxModuleBytes)
        else { return }
        if !isOwnPath {
            let paths = PackagePath.modulePaths(for: name)
            problem("module \(name) is stored at \(path); it must be \(paths[0]) or \(paths[1])")
            return
        }
        if modulesInOrder, let last = modules.last, !PackagePath.precedes(last.path, path) {
            modulesInOrder = false
        }
        if entriesASCII, !PackagePath.isASCII(path) { entriesASCII = false }
        // Longer than `modules/` (8 bytes), the name and `.lua` (4): stored as `…/init.lua`.
        if path.utf8.count > name.rawValue.utf8.count + 12 { initModules.append(modules.count) }
        modules.append(Manifest.Module(name: name, path: path, size: size, sha256: sha))
    }

    /// Checks resource entry `index` and appends it to `resources` when every rule holds.
    mutating func addResource(
        _ index: Int, name: String?, type: String?, path: String?, size: Int64?, sha: String?,
        to resources: inout [Manifest.Resource]
    ) {
        guard let name, let type, let path, let size, let sha else { return }
        let key: ResourceKey
        do { key = try ResourceKey(name: name, type: type) } catch {
            problem("resources[\(index)]: \(error)")
            return
        }
        guard
            checkEntryFacts(
                place: "resource \(key.description)", path: path, size: size, sha256: sha,
                limit: limits.maxResourceBytes)
        else { return }
        if path != PackagePath.resourcePath(for: key) {
            problem("resource \(key) is stored at \(path); it must be \(PackagePath.resourcePath(for: key))")
            return
        }
        if resourcesInOrder, let last = resources.last, !PackagePath.precedes(last.path, path) {
            resourcesInOrder = false
        }
        if entriesASCII, !(PackagePath.isASCII(name) && PackagePath.isASCII(type) && PackagePath.isASCII(path)) {
            entriesASCII = false
        }
        resources.append(Manifest.Resource(key: key, path: path, size: size, sha256: sha))
    }

    mutating func checkEntryFacts(
        place: @autoclosure () -> String, path: String?, size: Int64, sha256: String, limit: Int64
    ) -> Bool {
        var ok = true
        if let path, let reason = PackagePath.problem(in: path) {
            problem("\(place()): \(path): \(reason)")
            ok = false
        }
        if size < 0 { problem("\(place()): the size \(size) is negative"); ok = false }
        if size > limit { problem("\(place()): the size \(size) is over the limit of \(limit) bytes"); ok = false }
        if !ManifestRules.isSHA256(sha256) {
            problem("\(place()): \"sha256\" is not 64 lowercase hex digits"); ok = false
        }
        return ok
    }

    /// Names and paths listed twice, the entry count limit, the module total, the start module.
    mutating func checkEntries(
        modules: [Manifest.Module], resources: [Manifest.Resource], scripts: Int = 0, startModule: ModuleName?
    ) {
        if modules.count + resources.count + scripts + 1 > limits.maxEntries {
            problem(
                "the manifest lists \(modules.count + resources.count + scripts) entries; a package holds at most \(limits.maxEntries - 1)"
            )
        }
        let totalModuleBytes = modules.reduce(Int64(0)) { $0 + $1.size }
        if totalModuleBytes > limits.maxTotalModuleBytes {
            problem("the modules add up to \(totalModuleBytes) bytes; the limit is \(limits.maxTotalModuleBytes)")
        }
        if !(entriesASCII && modulesInOrder && resourcesInOrder && noModuleTwice(modules)) {
            // Sorted, so the same manifest always gets the same report.
            for (name, count) in Dictionary(modules.map { ($0.name, 1) }, uniquingKeysWith: +).sorted(by: {
                $0.key < $1.key
            })
            where count > 1 {
                problem("module \(name) is listed \(count) times")
            }
            for (key, count) in Dictionary(resources.map { ($0.key, 1) }, uniquingKeysWith: +).sorted(by: {
                $0.key < $1.key
            })
            where count > 1 {
                problem("resource \(key) is listed \(count) times")
            }
            let paths = modules.map(\.path) + resources.map(\.path)
            for (path, count) in Dictionary(paths.map { ($0, 1) }, uniquingKeysWith: +).sorted(by: { $0.key < $1.key })
            where count > 1 {
                problem("\(path) is listed \(count) times")
            }
        }
        if let startModule, !startModuleNamed {
            problem("the start module \(startModule) is not among the package's modules")
        }
    }

    /// Whether no module is listed twice (`ManifestRules.noModuleTwice`), in `modules` sorted
    /// by path with no path twice. With the resources sorted the same way, no name, key or path
    /// can then be listed twice (every module path is `modules/…` and every resource path
    /// `resources/…`; a resource key has one path), and the counting tables are not needed.
    func noModuleTwice(_ modules: [Manifest.Module]) -> Bool {
        ManifestRules.noModuleTwice(sortedPaths: modules.lazy.map(\.path.utf8), initModules: initModules)
    }
}
