import FlowJSON

/// Where a package's modules came from when some are a dependency's: flowpkg.json's
/// `dependencies`, as `flowpkg.lock` pinned them.
///
/// Written as the manifest's `dependencies` list only when there are some, so packages without
/// dependencies keep their bytes (and their digest). The digest covers every entry's bytes
/// already; this list says which dependency each module belongs to.
extension Manifest {
    /// One dependency whose modules the package holds.
    public struct Dependency: Sendable, Equatable {
        /// The dependency's name: the rock's, or the key in flowpkg.json's `dependencies`.
        public var name: String
        /// `rock`, `path` or `package`.
        public var kind: String
        public var version: String
        /// The modules it provides, sorted.
        public var modules: [ModuleName]

        public init(name: String, kind: String, version: String, modules: [ModuleName]) {
            self.name = name
            self.kind = kind
            self.version = version
            self.modules = modules
        }
    }

    /// The dependency `module` came from, or nil for the project's own modules.
    public func dependency(providing module: ModuleName) -> Dependency? {
        dependencies.first { $0.modules.contains(module) }
    }

    /// `  "dependencies": [...],\n`: one row per dependency, sorted by name.
    func dependenciesJSON() -> String {
        var out = "  \"dependencies\": ["
        out += dependencies.map { dependency in
            "\n    {\"name\": \(JSONText.quoted(dependency.name)), \"kind\": \(JSONText.quoted(dependency.kind)), "
                + "\"version\": \(JSONText.quoted(dependency.version)), \"modules\": ["
                + dependency.modules.map { JSONText.quoted($0.rawValue) }.joined(separator: ", ") + "]}"
        }.joined(separator: ",")
        out += "\n  ],\n"
        return out
    }
}

extension ManifestDecoder {
    /// The optional `dependencies` list; a malformed row is a problem, an absent list is none.
    mutating func decodeDependencies(_ value: JSONNode.Value?) -> [Manifest.Dependency] {
        guard let value else { return [] }
        guard case .array(let elements) = value else {
            problem("\"dependencies\" is \(value.kindDescription), expected an array")
            return []
        }
        var dependencies: [Manifest.Dependency] = []
        for (index, element) in elements.enumerated() {
            guard case .object = element.value, case .string(let name)? = element["name"]?.value,
                case .string(let kind)? = element["kind"]?.value,
                case .string(let version)? = element["version"]?.value,
                case .array(let names)? = element["modules"]?.value
            else {
                problem("dependencies[\(index)] needs \"name\", \"kind\", \"version\" and \"modules\"")
                continue
            }
            // A dependency's name becomes a folder (`vendor/NAME/`) wherever it is unpacked.
            if name.isEmpty || name.allSatisfy({ $0 == "." }) || name.contains("/") || name.contains("\\") {
                problem("dependencies[\(index)] is named '\(name)', which is not a dependency name")
                continue
            }
            var modules: [ModuleName] = []
            for node in names {
                guard case .string(let text) = node.value, let module = try? ModuleName(text) else {
                    problem("dependencies[\(index)] lists a module that is not a module name")
                    continue
                }
                modules.append(module)
            }
            dependencies.append(Manifest.Dependency(name: name, kind: kind, version: version, modules: modules))
        }
        return dependencies
    }
}
