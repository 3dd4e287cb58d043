extension Manifest {
    /// The manifest as `manifest.json` stores it: UTF-8, keys in the format's fixed order, one
    /// module or resource per line, a final line feed. Written by hand because the key order
    /// and the exact bytes are part of the format's reproducibility.
    public func jsonBytes() -> [UInt8] {
        var out = "{\n"
        out += "  \"formatVersion\": \(formatVersion),\n"
        out += "  \"identifier\": \(jsonString(identifier.rawValue)),\n"
        out += "  \"name\": \(jsonString(name)),\n"
        out += "  \"version\": \(jsonString(version)),\n"
        out += "  \"startModule\": \(startModule.map { jsonString($0.rawValue) } ?? "null"),\n"
        out += "  \"luaVersion\": \(jsonString(luaVersion)),\n"
        out += "  \"generator\": \(jsonString(generator)),\n"
        out += "  \"modules\": ["
        out += modules.map { module in
            "\n    {\"name\": \(jsonString(module.name.rawValue)), \"path\": \(jsonString(module.path)), "
                + "\"size\": \(module.size), \"sha256\": \(jsonString(module.sha256))}"
        }.joined(separator: ",")
        out += modules.isEmpty ? "],\n" : "\n  ],\n"
        out += "  \"resources\": ["
        out += resources.map { resource in
            "\n    {\"name\": \(jsonString(resource.key.name)), \"type\": \(jsonString(resource.key.type)), "
                + "\"path\": \(jsonString(resource.path)), \"size\": \(resource.size), "
                + "\"sha256\": \(jsonString(resource.sha256))}"
        }.joined(separator: ",")
        out += resources.isEmpty ? "],\n" : "\n  ],\n"
        out += "  \"digest\": \(jsonString(digest))\n"
        out += "}\n"
        return Array(out.utf8)
    }
}

/// A JSON string literal: quotes, backslashes and control characters escaped, everything else
/// as UTF-8 (so names in any script stay readable in the manifest).
func jsonString(_ value: String) -> String {
    var out = "\""
    for scalar in value.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F:
            let hex = String(scalar.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}
