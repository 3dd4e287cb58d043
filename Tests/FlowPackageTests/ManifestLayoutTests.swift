import Foundation
import FlowSupport
import Testing

@testable import FlowPackage

/// A manifest in the writer's own layout is read straight from its bytes (`CanonicalManifest`);
/// any other layout goes through the JSON parser. Both readings must give the same manifest,
/// accept and refuse the same ones, and word the same problems.
@Suite struct ManifestLayoutTests {
    private func manifest(
        modules: [(String, String)] = [("main", "modules/main.lua"), ("pl.utils", "modules/pl/utils.lua")],
        resources: [(String, String)] = [("img/logo", "png")],
        externalModules: [String] = [], runtimeVersion: String? = nil, name: String = "Words",
        startModule: String? = "main", formatVersion: Int = Manifest.currentFormatVersion
    ) throws -> Manifest {
        var manifest = Manifest(
            formatVersion: formatVersion, identifier: try PackageIdentifier("com.example.words"), name: name,
            version: "1.0.0", startModule: try startModule.map { try ModuleName($0) }, generator: "flowpkg 0.1.0",
            modules: try modules.enumerated().map { index, module in
                Manifest.Module(
                    name: try ModuleName(module.0), path: module.1, size: Int64(index * 1000),
                    sha256: String(repeating: "\(index % 10)", count: 64))
            },
            resources: try resources.enumerated().map { index, resource in
                let key = try ResourceKey(name: resource.0, type: resource.1)
                return Manifest.Resource(
                    key: key, path: PackagePath.resourcePath(for: key), size: 7,
                    sha256: String(repeating: "e", count: 63) + "\(index % 10)")
            },
            digest: "")
        manifest.externalModules = externalModules
        manifest.runtimeVersion = runtimeVersion
        // As the writer lists them.
        manifest.modules.sort { PackagePath.precedes($0.path, $1.path) }
        manifest.resources.sort { PackagePath.precedes($0.path, $1.path) }
        manifest.digest = manifest.computedDigest
        return manifest
    }

    /// The same JSON in another layout (a space after the opening brace), which only the
    /// parser reads.
    private func relaidOut(_ bytes: [UInt8]) -> [UInt8] {
        #expect(bytes.starts(with: Array("{\n".utf8)))
        return Array("{ ".utf8) + bytes.dropFirst(1)
    }

    private func outcome(_ bytes: [UInt8]) -> Result<Manifest, PackageError> {
        Result { () throws(PackageError) in try Manifest.decode(bytes, packagePath: "p.luapkg") }
    }

    /// `bytes`, a manifest edited after its digest was written, is refused by both readings,
    /// first for its digest and in the same words.
    private func expectDigestMismatch(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .failure(let canonical) = outcome(bytes), case .failure(let parsed) = outcome(relaidOut(bytes))
        else {
            Issue.record("an edited manifest was accepted", sourceLocation: sourceLocation)
            return
        }
        #expect(canonical.problems == parsed.problems, sourceLocation: sourceLocation)
        #expect(
            canonical.problems.first?.message.hasPrefix("the digest does not match the manifest") == true,
            sourceLocation: sourceLocation)
    }

    @Test func writerManifestsAreReadInTheirLayoutAndGiveWhatTheParserGives() throws {
        let manifests = [
            try manifest(),
            try manifest(modules: [], resources: [], startModule: nil),
            try manifest(externalModules: ["lfs", "socket.*"], runtimeVersion: "2"),
            try manifest(resources: [("img/é", "png"), ("texts/readme", "")], name: "Wörter 🚀"),
            try manifest(modules: [("main", "modules/main.lua"), ("ui", "modules/ui/init.lua")]),
            try manifest(formatVersion: 1),
        ]
        for manifest in manifests {
            let bytes = manifest.jsonBytes()
            #expect(CanonicalManifest(bytes) != nil, "the writer's layout is not recognised: \(manifest.name)")
            #expect(CanonicalManifest(relaidOut(bytes)) == nil)
            #expect(try Manifest.decode(bytes, packagePath: "p") == manifest)
            #expect(try Manifest.decode(relaidOut(bytes), packagePath: "p") == manifest)
        }
    }

    @Test func theEntryLinesAreTheDigestTextsOwn() throws {
        let manifest = try manifest(
            modules: [
                ("main", "modules/main.lua"), ("pl.utils", "modules/pl/utils.lua"), ("ui", "modules/ui/init.lua"),
            ],
            resources: [("img/é", "png"), ("img/logo", "png"), ("texts/readme", "")])
        let canonical = try #require(CanonicalManifest(manifest.jsonBytes()))
        var lines: [UInt8] = []
        canonical.forEachEntryLineBlock { lines += $0 }
        let text = manifest.digestText
        #expect(text.count > lines.count)
        #expect(Array(text.suffix(lines.count)) == lines)
        let bytes = Manifest.packageDigestBytes(header: manifest, entryLines: canonical)
        #expect(bytes.hexDigits == manifest.packageDigest)
        #expect(bytes.hasHexDigits(manifest.packageDigest))
        #expect(!bytes.hasHexDigits(manifest.packageDigest.uppercased()))
        #expect(!bytes.hasHexDigits(String(manifest.packageDigest.dropLast())))
    }

    /// Enough modules that the digest's lines are hashed in several blocks.
    @Test func aLargeManifestKeepsItsEntriesInATableAndGivesTheSameManifest() throws {
        let names = (0..<1100).map { String(format: "copy%04d.pl.utils", $0) } + ["main"]
        var manifest = try manifest(
            modules: names.map { ($0, "modules/" + $0.replacingOccurrences(of: ".", with: "/") + ".lua") })
        for index in manifest.modules.indices { manifest.modules[index].size = Int64(index) }
        manifest.digest = manifest.computedDigest
        let bytes = manifest.jsonBytes()
        let decoded = try Manifest.decodeChecked(bytes, packagePath: "p", limits: .default)
        let table = try #require(decoded.table)
        #expect(table.modules.count == 1101)
        #expect(decoded.header.modules.isEmpty)
        #expect(decoded.manifest == manifest)
        #expect(try Manifest.decode(relaidOut(bytes), packagePath: "p") == manifest)
        let position = try #require(table.position(ofPath: "modules/copy0450/pl/utils.lua", resources: false))
        #expect(table.module(at: position) == manifest.modules[position])
        #expect(table.position(ofPath: "modules/copy0450/pl/util.lua", resources: false) == nil)
        #expect(table.position(ofPath: "resources/img/logo.png", resources: true) == 0)

        // One hash changed after the digest was computed: refused, in the same words either way.
        var tampered = manifest
        tampered.modules[700].sha256 = String(repeating: "f", count: 64)
        expectDigestMismatch(tampered.jsonBytes())
    }

    /// The constant bit sets behind `ModuleName.isNameByte` say what its documentation says.
    @Test func moduleNameBytesAreTheDocumentedOnes() {
        for byte in UInt8.min...UInt8.max {
            let documented = byte >= 0x80 || (byte >= 0x20 && byte != 0x7F && !"./\\:*?\"<>|".utf8.contains(byte))
            #expect(ModuleName.isNameByte(byte) == documented, "byte \(byte)")
        }
    }

    /// The table takes only what the `String` reading would accept, and leaves to it anything
    /// non-ASCII or from format 1.
    @Test func onlyASCIIFormatTwoManifestsGetATable() throws {
        let cases: [(Manifest, Bool)] = [
            (try manifest(), true),
            (try manifest(modules: [], resources: [], startModule: nil), true),
            (try manifest(modules: [("main", "modules/main.lua"), ("ui", "modules/ui/init.lua")]), true),
            // Only the entries need be ASCII: a project's display name or an external module may not be.
            (try manifest(externalModules: ["é"], name: "Wörter 🚀"), true),
            (try manifest(resources: [("img/é", "png")]), false),
            (try manifest(modules: [("main", "modules/main.lua"), ("é", "modules/é.lua")]), false),
            (try manifest(formatVersion: 1), false),
        ]
        for (manifest, tabled) in cases {
            let decoded = try Manifest.decodeChecked(manifest.jsonBytes(), packagePath: "p", limits: .default)
            #expect((decoded.table != nil) == tabled, "\(manifest.modules.map(\.path))")
            #expect(decoded.manifest == manifest)
        }
    }

    @Test(arguments: [
        ("\"size\": 1000,", "\"size\": 01000,"),  // a leading zero
        ("\"size\": 1000,", "\"size\": -1000,"),  // a sign
        ("\"size\": 1000,", "\"size\": 1000.0,"),  // a fraction
        ("\"luaVersion\": \"5.4\",\n", "\"luaVersion\": \"5\\u002e4\",\n"),  // an escape
        ("\"name\": \"Words\"", "\"name\": \"Wo\u{7F}rds\""),  // a byte the writer escapes
        ("\"name\": \"pl.utils\", \"path\"", "\"path\": \"modules/pl/utils.lua\", \"name\": \"pl.utils\", \"path\""),
        ("  \"luaVersion\"", "  \"extra\": 1,\n  \"luaVersion\""),  // an unknown key
        ("  \"generator\": \"flowpkg 0.1.0\",\n", ""),  // a missing key
        ("\"startModule\": \"main\"", "\"startModule\": 7"),  // another type
        ("\n}\n", "\n}\n\n"),  // bytes after the end
        ("\n}\n", "\n}"),  // no final line feed
    ])
    func anyOtherLayoutGoesToTheParser(original: String, replacement: String) throws {
        let text = String(decoding: try manifest().jsonBytes(), as: UTF8.self)
        #expect(text.contains(original))
        let edited = Array(text.replacingOccurrences(of: original, with: replacement).utf8)
        #expect(CanonicalManifest(edited) == nil)
    }

    /// Numbers of 19 digits and more overflowed the byte-level reader's `Int64` before it counted
    /// the digits, and every command that opened such a package died with SIGILL.
    @Test(arguments: [
        "9223372036854775807", "9223372036854775808", "99999999999999999999", "1" + String(repeating: "0", count: 40),
    ])
    func numbersTooLargeForAnInt64AreRefusedNotACrash(digits: String) throws {
        let text = String(decoding: try manifest().jsonBytes(), as: UTF8.self)
        for (original, replacement) in [
            ("\"size\": 1000,", "\"size\": \(digits),"),
            ("\"formatVersion\": \(Manifest.currentFormatVersion),", "\"formatVersion\": \(digits),"),
        ] {
            #expect(text.contains(original))
            let edited = Array(text.replacingOccurrences(of: original, with: replacement).utf8)
            #expect(CanonicalManifest(edited) == nil)
            guard case .failure(let error) = outcome(edited) else {
                Issue.record("a manifest with \(digits) in place of \(original) was accepted")
                continue
            }
            #expect(!error.problems.isEmpty)
        }
    }

    /// Edits of a valid manifest, each of which both readings must refuse (but the tenth,
    /// a reversal that leaves the digest matching, which both must accept alike).
    static var refusedEdits: [(Manifest) -> Manifest] {
        var edits: [(Manifest) -> Manifest] = []
        edits.append {
            var m = $0; m.modules[1].path = "modules/pl/other.lua"; return m
        }
        edits.append {
            var m = $0; m.modules[0].sha256 = "xyz"; return m
        }
        edits.append {
            var m = $0; m.modules[0].size = 1 << 40; return m
        }
        edits.append {
            var m = $0; m.formatVersion = 9; return m
        }
        edits.append {
            var m = $0; m.luaVersion = "5.1"; return m
        }
        edits.append {
            var m = $0; m.runtimeVersion = ""; return m
        }
        edits.append {
            var m = $0; m.externalModules = ["a..b"]; return m
        }
        edits.append {
            var m = $0; m.startModule = try? ModuleName("missing"); return m
        }
        edits.append {
            var m = $0; m.modules.append(m.modules[0]); return m
        }
        edits.append {
            var m = $0; m.modules.reverse(); return m
        }
        edits.append {
            var m = $0; m.resources[0].path = "resources/img/other.png"; return m
        }
        // What the byte checks of `ManifestTable` must refuse as the `String` checks do.
        edits.append {
            var m = $0; m.modules[1].path = "modules/pl/utils/init.lua"; m.modules.append(m.modules[1]);
            m.modules[2].path = "modules/pl/utils.lua"; m.modules.sort { PackagePath.precedes($0.path, $1.path) }
            return m
        }
        edits.append {
            var m = $0; m.modules[1].path = "modules/pl/utils.luax"; return m
        }
        edits.append {
            var m = $0; m.modules[1].path = "modules/" + String(repeating: "a/", count: 600) + "x.lua"; return m
        }
        edits.append {
            var m = $0; m.resources[0].path = "resources/img/logo.jpg"; return m
        }
        edits.append {
            var m = $0; m.resources[0].path = "resources/img/logo"; return m
        }
        edits.append {
            var m = $0; m.startModule = try? ModuleName("\u{212A}"); return m
        }
        edits.append {
            var m = $0; m.modules[0].sha256 = String(repeating: "A", count: 64); return m
        }
        return edits
    }

    @Test func bothReadingsRefuseWithTheSameWords() throws {
        for (number, edit) in Self.refusedEdits.enumerated() {
            var edited = edit(try manifest())
            let keepsDigest = number == 9  // reversed: the digest sorts, so it still matches
            if !keepsDigest { edited.digest = edited.computedDigest }
            let bytes = edited.jsonBytes()
            #expect(CanonicalManifest(bytes) != nil)
            let canonical = outcome(bytes)
            let parsed = outcome(relaidOut(bytes))
            switch (canonical, parsed) {
            case (.success(let lhs), .success(let rhs)):
                #expect(number == 9 && lhs == rhs, "edit \(number) was accepted")
            case (.failure(let lhs), .failure(let rhs)):
                #expect(lhs.problems == rhs.problems, "edit \(number)")
                #expect(!lhs.problems.isEmpty)
            default:
                Issue.record("edit \(number): the readings disagree: \(canonical) against \(parsed)")
            }
        }
        // A digest that does not match is found by both, computed from the copied lines or not.
        var tampered = try manifest()
        tampered.modules[0].size += 1
        expectDigestMismatch(tampered.jsonBytes())
    }
}
