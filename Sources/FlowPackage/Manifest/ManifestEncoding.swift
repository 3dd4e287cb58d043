extension Manifest {
    /// The manifest as `manifest.json` stores it: UTF-8, keys in the format's fixed order, one
    /// module or resource per line, a final line feed. Written by hand because the key order
    /// and the exact bytes are part of the format's reproducibility.
    public func jsonBytes() -> [UInt8] {
        var out = "{\n"
        out += "  \"formatVersion\": \(formatVersion),\n"
        out += "  \"identifier\": \(JSONText.quoted(identifier.rawValue)),\n"
        out += "  \"name\": \(JSONText.quoted(name)),\n"
        out += "  \"version\": \(JSONText.quoted(version)),\n"
        out += "  \"startModule\": \(startModule.map { JSONText.quoted($0.rawValue) } ?? "null"),\n"
        out += "  \"luaVersion\": \(JSONText.quoted(luaVersion)),\n"
        // Written only when set, so packages without it keep their bytes (and digests).
        if let runtimeVersion { out += "  \"runtimeVersion\": \(JSONText.quoted(runtimeVersion)),\n" }
        out += "  \"generator\": \(JSONText.quoted(generator)),\n"
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
        out += "  \"digest\": \(JSONText.quoted(digest))\n"
        out += "}\n"
        return Array(out.utf8)
    }
}

