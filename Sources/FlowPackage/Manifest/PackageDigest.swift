import Crypto

extension Manifest {
    /// The package digest (format 2): the lowercase hex SHA-256 of `digestText`. It identifies
    /// the package: two packages with the same digest have the same identifier, name, version,
    /// start module, Lua version, external modules, runtime version, modules and resources, byte for byte. It leaves out only the
    /// generator (the flowpkg that wrote the package), so the same project exported by two
    /// flowpkg versions has one digest. This is what a signature over a package signs.
    public var packageDigest: String {
        hexString(SHA256.hash(data: digestText))
    }

    /// The canonical text `packageDigest` hashes: UTF-8, one field per line, each line ending in
    /// a line feed, strings written as JSON string literals (so no value can fake a line):
    ///
    ///     flowpkg-package 2
    ///     identifier "com.example.app"
    ///     name "App"
    ///     version "1.0.0"
    ///     startModule "main"                    (null when there is none)
    ///     luaVersion "5.4"
    ///     externalModule "lfs"                   (one per entry, in the manifest's order)
    ///     runtimeVersion "2"                     (only when the manifest has one)
    ///     module "main" "modules/main.lua" 120 <sha256>
    ///     resource "img/logo" "png" "resources/img/logo.png" 2048 <sha256>
    ///
    /// `module` lines (name, package path, size, SHA-256) then `resource` lines (name, type,
    /// package path, size, SHA-256), each group sorted by package path in UTF-8 byte order.
    /// The first line's number is the format version. A manifest field added later that changes
    /// what a host runs belongs in this text.
    public var digestText: [UInt8] {
        var text = DigestText()
        text.line("flowpkg-package", "\(formatVersion)")
        text.line("identifier", quoted: identifier.rawValue)
        text.line("name", quoted: name)
        text.line("version", quoted: version)
        if let startModule {
            text.line("startModule", quoted: startModule.rawValue)
        } else {
            text.line("startModule", "null")
        }
        text.line("luaVersion", quoted: luaVersion)
        for entry in externalModules { text.line("externalModule", quoted: entry) }
        if let runtimeVersion { text.line("runtimeVersion", quoted: runtimeVersion) }
        for module in Self.sortedByPath(modules, \.path) {
            text.word("module")
            text.quoted(module.name.rawValue)
            text.quoted(module.path)
            text.line("\(module.size)", module.sha256)
        }
        for resource in Self.sortedByPath(resources, \.path) {
            text.word("resource")
            text.quoted(resource.key.name)
            text.quoted(resource.key.type)
            text.quoted(resource.path)
            text.line("\(resource.size)", resource.sha256)
        }
        return text.bytes
    }

    /// Manifests list their entries sorted already; sorting is then skipped.
    private static func sortedByPath<T>(_ items: [T], _ path: (T) -> String) -> [T] {
        let isSorted = zip(items, items.dropFirst()).allSatisfy { !PackagePath.precedes(path($1), path($0)) }
        return isSorted ? items : items.sorted { PackagePath.precedes(path($0), path($1)) }
    }

    /// The format 1 digest, which packages written before format 2 carry: the lowercase hex
    /// SHA-256 of one line per entry, `path:sha256\n`, sorted by the paths' UTF-8 bytes. It
    /// covers the entries only, not the identifier or the version. An empty package's is the
    /// SHA-256 of no bytes.
    public static func entryListDigest(of entries: [(path: String, sha256: String)]) -> String {
        let sorted = entries.sorted(by: { PackagePath.precedes($0.path, $1.path) })
        var lines: [UInt8] = []
        for entry in sorted {
            lines.append(contentsOf: entry.path.utf8)
            lines.append(UInt8(ascii: ":"))
            lines.append(contentsOf: entry.sha256.utf8)
            lines.append(UInt8(ascii: "\n"))
        }
        return hexString(SHA256.hash(data: lines))
    }
}

/// Builds the digest text in one buffer: a package of thousands of entries is hashed once,
/// with no string built per entry.
private struct DigestText {
    var bytes: [UInt8] = []

    /// `word` and a space.
    mutating func word(_ word: String) {
        bytes += word.utf8
        bytes.append(UInt8(ascii: " "))
    }

    /// `value` as a JSON string literal, and a space.
    mutating func quoted(_ value: String) {
        // Names and paths almost never need escaping: copy their bytes straight in.
        if value.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            bytes.append(UInt8(ascii: "\""))
            bytes += value.utf8
            bytes.append(UInt8(ascii: "\""))
        } else {
            bytes += JSONText.quoted(value).utf8
        }
        bytes.append(UInt8(ascii: " "))
    }

    /// `first`, a space, `second` and a line feed.
    mutating func line(_ first: String, _ second: String) {
        bytes += first.utf8
        bytes.append(UInt8(ascii: " "))
        bytes += second.utf8
        bytes.append(UInt8(ascii: "\n"))
    }

    /// `key`, a space, `value` as a JSON string literal and a line feed.
    mutating func line(_ key: String, quoted value: String) {
        word(key)
        quoted(value)
        bytes[bytes.count - 1] = UInt8(ascii: "\n")
    }
}
