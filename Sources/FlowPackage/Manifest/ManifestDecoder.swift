import FlowJSON

/// Turns the parsed JSON into a `Manifest`, collecting every problem instead of stopping at
/// the first, so `verify` can report them all at once.
struct ManifestDecoder {
    let limits: PackageLimits
    var problems: [PackageProblem] = []
    /// The start module, to look for among the modules as they are decoded.
    private var startModule: ModuleName?
    /// Whether a module entry names the start module, even one refused for another reason,
    /// so one mistake does not also read as "the start module is missing".
    private var startModuleNamed = false
    /// Whether each list is sorted by path with no path twice, as the writer lists them:
    /// told as entries are decoded, so the duplicate checks need no table.
    private var modulesInOrder = true
    private var resourcesInOrder = true
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

    mutating func decode(_ root: JSONNode) -> Manifest? {
        guard case .object(let members) = root.value else {
            problem("the manifest is \(root.kindDescription), not an object")
            return nil
        }
        let fields = Fields(members)

        let formatVersion = integer(fields, "formatVersion", in: "the manifest")
        checkFormatVersion(formatVersion)
        let identifier = checkIdentifier(string(fields, "identifier", in: "the manifest"))
        let name = string(fields, "name", in: "the manifest")
        checkNotEmpty(name, "name")
        let version = string(fields, "version", in: "the manifest")
        checkNotEmpty(version, "version")
        var startModule: ModuleName?
        var startModuleFieldOK = true
        switch fields["startModule"] {
        case nil: problem("the manifest has no \"startModule\" (null when there is none)"); startModuleFieldOK = false
        case .null?: break
        case .string(let text)?: (startModule, startModuleFieldOK) = checkStartModule(text)
        case let other?:
            problem("\"startModule\" is \(other.kindDescription), expected a string or null");
            startModuleFieldOK = false
        }
        let luaVersion = string(fields, "luaVersion", in: "the manifest")
        checkLuaVersion(luaVersion)
        let generator = string(fields, "generator", in: "the manifest")
        var runtimeVersion: String?
        switch fields["runtimeVersion"] {
        case nil: break
        case .string(let text)?: runtimeVersion = checkRuntimeVersion(text)
        case let other?: problem("\"runtimeVersion\" is \(other.kindDescription), expected a string")
        }
        let digest = string(fields, "digest", in: "the manifest")
        checkDigestField(digest)

        self.startModule = startModule
        let externalModules = decodeExternalModules(fields["externalModules"])
        let modules = decodeModules(fields["modules"])
        let resources = decodeResources(fields["resources"])
        let scripts = decodeScripts(fields["scripts"])
        if let modules, let resources {
            checkEntries(modules: modules, resources: resources, scripts: scripts.count, startModule: startModule)
        }
        checkScripts(scripts)

        guard let formatVersion, let identifier, let name, let version, startModuleFieldOK, let luaVersion,
            let generator, let digest, let modules, let resources
        else { return nil }
        var manifest = Manifest(
            formatVersion: Int(formatVersion), identifier: identifier, name: name, version: version,
            startModule: startModule, luaVersion: luaVersion, generator: generator,
            modules: modules, resources: resources, digest: digest)
        manifest.externalModules = externalModules
        manifest.runtimeVersion = runtimeVersion
        manifest.scripts = scripts
        manifest.dependencies = decodeDependencies(fields["dependencies"])
        checkDigest(of: manifest, computed: { manifest.computedDigest })
        return manifest
    }

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
        checkDigest(of: manifest) {
            linesInOrder
                ? Manifest.packageDigest(header: manifest, entryLines: canonical) : manifest.computedDigest
        }
        if let table { return DecodedManifest(header: manifest, table: table) }
        return DecodedManifest(manifest: manifest)
    }

    // MARK: The rules, shared by both readers

    private mutating func checkFormatVersion(_ formatVersion: Int64?) {
        if let formatVersion, !Manifest.readableFormatVersions.contains(where: { Int64($0) == formatVersion }) {
            problem(
                "format version \(formatVersion) is not supported: this flowpkg reads versions "
                    + "\(Manifest.readableFormatVersions.map(String.init).joined(separator: " and ")); "
                    + "use the flowpkg that wrote it, or export the project again")
        }
    }

    private mutating func checkIdentifier(_ text: String?) -> PackageIdentifier? {
        guard let text else { return nil }
        do { return try PackageIdentifier(text) } catch {
            problem("\"identifier\": \(error)")
            return nil
        }
    }

    private mutating func checkNotEmpty(_ text: String?, _ key: String) {
        if text?.isEmpty == true { problem("\"\(key)\" is empty") }
    }

    /// The start module and whether its field is sound.
    private mutating func checkStartModule(_ text: String) -> (ModuleName?, Bool) {
        do { return (try ModuleName(text), true) } catch {
            problem("\"startModule\": \(error)")
            return (nil, false)
        }
    }

    private mutating func checkLuaVersion(_ luaVersion: String?) {
        if let luaVersion, luaVersion != Manifest.currentLuaVersion {
            problem("the package targets Lua \(luaVersion); this flowpkg runs Lua \(Manifest.currentLuaVersion)")
        }
    }

    private mutating func checkRuntimeVersion(_ text: String) -> String {
        if text.isEmpty || text.utf8.count > 64 { problem("\"runtimeVersion\" must be 1 to 64 characters") }
        return text
    }

    private mutating func checkDigestField(_ digest: String?) {
        if let digest, !ManifestRules.isSHA256(digest) { problem("\"digest\" is not 64 lowercase hex digits") }
    }

    /// Whether `entry` may be `externalModules[index]`.
    private mutating func checkExternalModule(_ index: Int, _ entry: String) -> Bool {
        guard let reason = Manifest.externalModuleProblem(entry) else { return true }
        problem("externalModules[\(index)] \"\(entry)\": \(reason)")
        return false
    }

    /// The listed digest against the one computed, once every other rule held.
    private mutating func checkDigest(of manifest: Manifest, computed: () -> String) {
        guard problems.isEmpty else { return }
        let computed = computed()
        if computed != manifest.digest {
            problem(
                "the digest does not match the manifest (listed \(manifest.digest), computed \(computed)): "
                    + "the manifest was edited after it was written")
        }
    }

    /// The optional list of C modules from the host's C path; absent is none.
    private mutating func decodeExternalModules(_ value: JSONNode.Value?) -> [String] {
        guard let value else { return [] }
        guard case .array(let elements) = value else {
            problem("\"externalModules\" is \(value.kindDescription), expected an array of module names")
            return []
        }
        var names: [String] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let entry) = element.value else {
                problem("externalModules[\(index)] is \(element.kindDescription), expected a string")
                continue
            }
            if checkExternalModule(index, entry) { names.append(entry) }
        }
        return names
    }

    private mutating func decodeModules(_ value: JSONNode.Value?) -> [Manifest.Module]? {
        guard let elements = array(value, "modules") else { return nil }
        var modules: [Manifest.Module] = []
        modules.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            // Built only when there is a problem to name: a thousand interpolations cost more
            // than the rest of the decoding.
            let place = { "modules[\(index)]" }
            guard case .object(let members) = element.value else {
                problem("\(place()) is \(element.kindDescription), expected an object"); continue
            }
            let fields = Fields(members)
            let nameText = string(fields, "name", in: place())
            let path = string(fields, "path", in: place())
            let size = integer(fields, "size", in: place())
            let sha = string(fields, "sha256", in: place())
            addModule(index, nameText: nameText, path: path, size: size, sha: sha, to: &modules)
        }
        return modules
    }

    private mutating func decodeResources(_ value: JSONNode.Value?) -> [Manifest.Resource]? {
        guard let elements = array(value, "resources") else { return nil }
        var resources: [Manifest.Resource] = []
        resources.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let place = { "resources[\(index)]" }
            guard case .object(let members) = element.value else {
                problem("\(place()) is \(element.kindDescription), expected an object"); continue
            }
            let fields = Fields(members)
            let name = string(fields, "name", in: place())
            let type = string(fields, "type", in: place())
            let path = string(fields, "path", in: place())
            let size = integer(fields, "size", in: place())
            let sha = string(fields, "sha256", in: place())
            addResource(index, name: name, type: type, path: path, size: size, sha: sha, to: &resources)
        }
        return resources
    }

    /// The optional list of scripts; absent is none.
    private mutating func decodeScripts(_ value: JSONNode.Value?) -> [Manifest.Script] {
        guard let value else { return [] }
        guard case .array(let elements) = value else {
            problem("\"scripts\" is \(value.kindDescription), expected an array")
            return []
        }
        var scripts: [Manifest.Script] = []
        for (index, element) in elements.enumerated() {
            let place = { "scripts[\(index)]" }
            guard case .object(let members) = element.value else {
                problem("\(place()) is \(element.kindDescription), expected an object"); continue
            }
            let fields = Fields(members)
            let path = string(fields, "path", in: place())
            let size = integer(fields, "size", in: place())
            let sha = string(fields, "sha256", in: place())
            guard let path, let size, let sha else { continue }
            addScript(index, path: path, size: size, sha: sha, to: &scripts)
        }
        return scripts
    }

    /// Checks script entry `index` and appends it to `scripts` when every rule holds: a safe
    /// path under `scripts/` ending in `.lua`, a size within the module limit, a SHA-256.
    private mutating func addScript(
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
    private mutating func checkScripts(_ scripts: [Manifest.Script]) {
        var seen = Set<String>()
        for script in scripts where !seen.insert(script.path).inserted {
            problem("\(script.path) is listed twice")
        }
    }

    /// Checks module entry `index` (its fields as read; nil ones were already reported) and
    /// appends it to `modules` when every rule holds.
    private mutating func addModule(
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
    private mutating func addResource(
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

    private mutating func checkEntryFacts(
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
    private mutating func checkEntries(
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
    private func noModuleTwice(_ modules: [Manifest.Module]) -> Bool {
        ManifestRules.noModuleTwice(sortedPaths: modules.lazy.map(\.path.utf8), initModules: initModules)
    }

    private mutating func string(_ fields: Fields, _ key: String, in place: @autoclosure () -> String) -> String? {
        switch fields[key] {
        case .string(let value)?: return value
        case nil: problem("\(place()) has no \"\(key)\""); return nil
        case let other?: problem("\(place()) \"\(key)\" is \(other.kindDescription), expected a string"); return nil
        }
    }

    private mutating func integer(_ fields: Fields, _ key: String, in place: @autoclosure () -> String) -> Int64? {
        switch fields[key] {
        case .integer(let value)?: return value
        case nil: problem("\(place()) has no \"\(key)\""); return nil
        case .number(let value)? where value.rounded() == value && abs(value) >= 0x1p63:
            problem("\(place()) \"\(key)\" is too large, expected an integer up to \(Int64.max)"); return nil
        case let other?:
            problem(
                "\(place()) \"\(key)\" is \(other.kindDescription == "a number" ? "not a whole number" : other.kindDescription), expected an integer"
            ); return nil
        }
    }

    private mutating func array(_ value: JSONNode.Value?, _ key: String) -> [JSONNode]? {
        switch value {
        case .array(let elements)?: return elements
        case nil: problem("the manifest has no \"\(key)\""); return nil
        case let other?: problem("\"\(key)\" is \(other.kindDescription), expected an array"); return nil
        }
    }
}

/// An object's members looked up by key. Manifest objects hold a handful of keys, so a
/// linear search beats building a dictionary for each of a thousand entries; the parser has
/// already refused duplicate keys, so the first match is the only one.
private struct Fields {
    let members: [JSONNode.Member]

    init(_ members: [JSONNode.Member]) { self.members = members }

    subscript(key: String) -> JSONNode.Value? {
        for member in members where member.key == key { return member.value.value }
        return nil
    }
}
