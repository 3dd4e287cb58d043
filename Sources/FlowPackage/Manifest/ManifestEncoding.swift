import FlowJSON

extension Manifest {
    /// The manifest as `manifest.json` stores it: UTF-8, keys in the format's fixed order, one
    /// module or resource per line, a final line feed. Written by hand because the key order
    /// and the exact bytes are part of the format's reproducibility.
    public func jsonBytes() -> [UInt8] {
        var out = "{\n"
        for field in [JSONField.formatVersion, .identifier, .name, .version, .startModule, .luaVersion, .generator] {
            out += "  \(jsonMember(field)),\n"
        }
        if !externalModules.isEmpty {
            out += "  \(jsonMember(.externalModules)),\n"
        }
        // Written only when set, so packages without it keep their bytes.
        if runtimeVersion != nil {
            out += "  \(jsonMember(.runtimeVersion)),\n"
        }
        out += "  \"modules\": ["
        out += modules.map { module in
            "\n    {\"name\": \(JSONText.quoted(module.name.rawValue)), \"path\": \(JSONText.quoted(module.path)), "
                + "\"size\": \(module.size), \"sha256\": \(JSONText.quoted(module.sha256))}"
        }.joined(separator: ",")
        out += modules.isEmpty ? "],\n" : "\n  ],\n"
        out += "  \"resources\": ["
        out += resources.map { resource in
            "\n    {\"name\": \(JSONText.quoted(resource.key.name)), \"type\": \(JSONText.quoted(resource.key.type)), "
                + "\"path\": \(JSONText.quoted(resource.path)), \"size\": \(resource.size), "
                + "\"sha256\": \(JSONText.quoted(resource.sha256))}"
        }.joined(separator: ",")
        out += resources.isEmpty ? "],\n" : "\n  ],\n"
        // Written only when there are some, so packages without scripts keep their bytes.
        if !scripts.isEmpty {
            out += "  \"scripts\": ["
            out += scripts.map { script in
                "\n    {\"path\": \(JSONText.quoted(script.path)), \"size\": \(script.size), "
                    + "\"sha256\": \(JSONText.quoted(script.sha256))}"
            }.joined(separator: ",")
            out += "\n  ],\n"
        }
        // Written only when there are some, so packages without dependencies keep their bytes.
        if !dependencies.isEmpty { out += dependenciesJSON() }
        out += "  \(jsonMember(.digest))\n"
        out += "}\n"
        return Array(out.utf8)
    }

    /// A top-level field of `manifest.json` other than the entry lists.
    public enum JSONField: String, Sendable, CaseIterable {
        case formatVersion, identifier, name, version, startModule, luaVersion, generator, externalModules, digest
        case runtimeVersion
    }

    /// `"field": value` as `manifest.json` writes it; reports that show a manifest
    /// (`flowpkg inspect --format json`) use it too, so a field is encoded in one place.
    public func jsonMember(_ field: JSONField) -> String {
        let value: String
        switch field {
        case .formatVersion: value = String(formatVersion)
        case .identifier: value = JSONText.quoted(identifier.rawValue)
        case .name: value = JSONText.quoted(name)
        case .version: value = JSONText.quoted(version)
        case .startModule: value = startModule.map { JSONText.quoted($0.rawValue) } ?? "null"
        case .luaVersion: value = JSONText.quoted(luaVersion)
        case .generator: value = JSONText.quoted(generator)
        case .externalModules: value = "[" + externalModules.map { JSONText.quoted($0) }.joined(separator: ", ") + "]"
        case .digest: value = JSONText.quoted(digest)
        case .runtimeVersion: value = runtimeVersion.map { JSONText.quoted($0) } ?? "null"
        }
        return JSONText.quoted(field.rawValue) + ": " + value
    }
}
