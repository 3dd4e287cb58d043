import FlowJSON

// The tree reader: any manifest, from the JSON parser's tree, every field's type checked and
// worded; the rules are the decoder's own (ManifestDecoder.swift).
extension ManifestDecoder {
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
