import FlowJSON
import Foundation
import FlowTestSupport
import Testing
@testable import FlowPackage

@Suite struct ManifestTests {
    private func sample() throws -> Manifest {
        var manifest = Manifest(
            identifier: try PackageIdentifier("com.example.words"), name: "Words \"Collection\"", version: "1.0.0",
            startModule: try ModuleName("main"), generator: "flowpkg 0.1.0",
            modules: [
                Manifest.Module(
                    name: try ModuleName("main"), path: "modules/main.lua", size: 3,
                    sha256: String(repeating: "a", count: 64))
            ],
            resources: [
                Manifest.Resource(
                    key: try ResourceKey(name: "img/é", type: "png"), path: "resources/img/é.png", size: 5,
                    sha256: String(repeating: "b", count: 64))
            ],
            digest: "")
        manifest.digest = manifest.computedDigest
        return manifest
    }

    @Test func jsonHasTheFixedKeyOrderAndLayout() throws {
        let manifest = try sample()
        let text = String(decoding: manifest.jsonBytes(), as: UTF8.self)
        #expect(
            text == """
                {
                  "formatVersion": 2,
                  "identifier": "com.example.words",
                  "name": "Words \\"Collection\\"",
                  "version": "1.0.0",
                  "startModule": "main",
                  "luaVersion": "5.4",
                  "generator": "flowpkg 0.1.0",
                  "modules": [
                    {"name": "main", "path": "modules/main.lua", "size": 3, "sha256": "\(String(repeating: "a", count: 64))"}
                  ],
                  "resources": [
                    {"name": "img/é", "type": "png", "path": "resources/img/é.png", "size": 5, "sha256": "\(String(repeating: "b", count: 64))"}
                  ],
                  "digest": "\(manifest.digest)"
                }

                """)
    }

    @Test func decodingGivesBackTheSameManifest() throws {
        let manifest = try sample()
        #expect(try Manifest.decode(manifest.jsonBytes(), packagePath: "p") == manifest)
        var empty = manifest
        empty.modules = []
        empty.resources = []
        empty.startModule = nil
        empty.digest = empty.computedDigest
        #expect(String(decoding: empty.jsonBytes(), as: UTF8.self).contains("\"startModule\": null,\n"))
        #expect(try Manifest.decode(empty.jsonBytes(), packagePath: "p") == empty)
    }

    @Test func formatOneDigestIsTheSHA256OfSortedPathLines() throws {
        let a = String(repeating: "1", count: 64), b = String(repeating: "2", count: 64)
        let expected = try referenceSHA256(Array("modules/Z.lua:\(b)\nmodules/a.lua:\(a)\n".utf8))
        #expect(Manifest.entryListDigest(of: [("modules/a.lua", a), ("modules/Z.lua", b)]) == expected)
        #expect(Manifest.entryListDigest(of: []) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func packageDigestIsTheSHA256OfTheCanonicalText() throws {
        let manifest = try sample()
        let a = String(repeating: "a", count: 64), b = String(repeating: "b", count: 64)
        let text = """
            flowpkg-package 2
            identifier "com.example.words"
            name "Words \\"Collection\\""
            version "1.0.0"
            startModule "main"
            luaVersion "5.4"
            module "main" "modules/main.lua" 3 \(a)
            resource "img/é" "png" "resources/img/é.png" 5 \(b)

            """
        #expect(String(decoding: manifest.digestText, as: UTF8.self) == text)
        #expect(manifest.digest == (try referenceSHA256(Array(text.utf8))))
        var library = manifest
        library.startModule = nil
        library.modules = []
        #expect(
            String(decoding: library.digestText, as: UTF8.self).contains(
                "\nstartModule null\nluaVersion \"5.4\"\nresource "))
    }

    /// Scripts (Lua files loaded by path) are listed after the resources, only when there are
    /// some, so a package without scripts keeps its bytes and its digest; both readers read them.
    @Test func scriptsAreListedHashedAndReadBack() throws {
        var manifest = try sample()
        let withoutScripts = manifest.jsonBytes()
        let c = String(repeating: "c", count: 64), d = String(repeating: "d", count: 64)
        manifest.scripts = [
            Manifest.Script(path: "scripts/atl01.wmf/scripting/init.lua", size: 12, sha256: c),
            Manifest.Script(path: "scripts/muc/password.lib.lua", size: 7, sha256: d),
        ]
        manifest.digest = manifest.computedDigest
        let text = String(decoding: manifest.jsonBytes(), as: UTF8.self)
        #expect(
            text.contains(
                """
                  ],
                  "scripts": [
                    {"path": "scripts/atl01.wmf/scripting/init.lua", "size": 12, "sha256": "\(c)"},
                    {"path": "scripts/muc/password.lib.lua", "size": 7, "sha256": "\(d)"}
                  ],
                  "digest": 
                """), "\(text)")
        #expect(
            String(decoding: manifest.digestText, as: UTF8.self).hasSuffix(
                """
                script "scripts/atl01.wmf/scripting/init.lua" 12 \(c)
                script "scripts/muc/password.lib.lua" 7 \(d)

                """))
        // The writer's layout (read straight from the bytes) and any other (the JSON parser).
        let decoded = try Manifest.decodeChecked(manifest.jsonBytes(), packagePath: "p", limits: .default)
        #expect(decoded.manifest == manifest)
        #expect(try Manifest.decode(Array("{ ".utf8) + manifest.jsonBytes().dropFirst(), packagePath: "p") == manifest)
        #expect(manifest.script(atPath: "muc/password.lib.lua")?.sha256 == d)
        #expect(manifest.entries.map(\.path).suffix(2) == manifest.scripts.map(\.path))
        var plain = manifest
        plain.scripts = []
        plain.digest = plain.computedDigest
        #expect(plain.jsonBytes() == withoutScripts)

        for (path, problem) in [
            ("modules/a.lua", "a script must be scripts/<path>.lua"), ("scripts/a.txt", "a script must be"),
            ("scripts/../a.lua", "scripts[0]"),
        ] {
            var bad = manifest
            bad.scripts = [Manifest.Script(path: path, size: 1, sha256: c)]
            bad.digest = bad.computedDigest
            #expect(throws: PackageError.self) { try Manifest.decode(bad.jsonBytes(), packagePath: "p") }
            do {
                _ = try Manifest.decode(bad.jsonBytes(), packagePath: "p")
            } catch {
                #expect(error.problems.contains { $0.message.contains(problem) }, "\(error)")
            }
        }
    }

    /// Whatever changes what a host runs changes the digest; the generator does not.
    @Test func everyFieldThatMattersChangesTheDigest() throws {
        let base = try sample()
        var changed: [Manifest] = []
        var m = base; m.identifier = try PackageIdentifier("com.example.other"); changed.append(m)
        m = base; m.name = "Words"; changed.append(m)
        m = base; m.version = "1.0.1"; changed.append(m)
        m = base; m.startModule = nil; changed.append(m)
        m = base; m.luaVersion = "5.5"; changed.append(m)
        m = base; m.externalModules = ["lfs"]; changed.append(m)
        m = base; m.runtimeVersion = "2"; changed.append(m)
        m = base; m.modules[0].name = try ModuleName("other"); changed.append(m)
        m = base; m.modules[0].size = 4; changed.append(m)
        m = base; m.modules[0].sha256 = String(repeating: "c", count: 64); changed.append(m)
        m = base; m.resources[0].key = try ResourceKey(name: "img/é", type: "jpg"); changed.append(m)
        m = base; m.resources[0].path = "resources/img/e.png"; changed.append(m)
        let script = Manifest.Script(
            path: "scripts/muc/password.lib.lua", size: 7, sha256: String(repeating: "d", count: 64))
        m = base; m.scripts = [script]; changed.append(m)
        m = base; m.scripts = [script]; m.scripts[0].size = 8; changed.append(m)
        let digests = changed.map(\.computedDigest)
        #expect(!digests.contains(base.digest))
        #expect(Set(digests).count == digests.count)
        m = base; m.generator = "flowpkg 9.9.9"
        #expect(m.computedDigest == base.digest)
    }

    /// A package written before format 2 (digest over the entries only) still opens.
    @Test func formatOneManifestsStillDecode() throws {
        var old = try sample()
        old.formatVersion = 1
        old.digest = Manifest.entryListDigest(of: old.entries.map { ($0.path, $0.sha256) })
        #expect(old.computedDigest == old.digest)
        let decoded = try Manifest.decode(old.jsonBytes(), packagePath: "old.luapkg")
        #expect(decoded == old)
        // A format 2 manifest carrying the old kind of digest is refused.
        var mixed = old
        mixed.formatVersion = 2
        #expect(throws: PackageError.self) { try Manifest.decode(mixed.jsonBytes(), packagePath: "p") }
    }

    @Test func unsupportedVersionsAndBadFieldsAreNamed() throws {
        var text = String(decoding: try sample().jsonBytes(), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"formatVersion\": 2", with: "\"formatVersion\": 3")
            .replacingOccurrences(of: "\"luaVersion\": \"5.4\"", with: "\"luaVersion\": \"5.1\"")
            .replacingOccurrences(of: "\"identifier\": \"com.example.words\"", with: "\"identifier\": \"words\"")
        #expect {
            try Manifest.decode(Array(text.utf8), packagePath: "p.luapkg")
        } throws: { error in
            let messages = (error as? PackageError)?.problems.map(\.message) ?? []
            return messages.contains {
                $0.hasPrefix("format version 3 is not supported: this flowpkg reads versions 1 and 2")
            }
                && messages.contains("the package targets Lua 5.1; this flowpkg runs Lua 5.4")
                && messages.contains { $0.hasPrefix("\"identifier\": 'words' is not a valid package identifier") }
        }
    }

    @Test func modulePathMustMatchItsName() throws {
        var manifest = try sample()
        manifest.modules[0].path = "modules/other.lua"
        manifest.digest = manifest.computedDigest
        #expect {
            try Manifest.decode(manifest.jsonBytes(), packagePath: "p")
        } throws: { error in
            (error as? PackageError)?.problems == [
                PackageProblem(
                    .invalidManifest, entry: "manifest.json",
                    message:
                        "module main is stored at modules/other.lua; it must be modules/main.lua or modules/main/init.lua"
                )
            ]
        }
    }

    @Test func parserHandlesEscapesAndRefusesJunk() throws {
        let node = try JSONParser.parse(Array(#"{"a": ["\u00e9\ud83d\ude00\n", -12, 1.5, true, null]}"#.utf8))
        guard case .array(let elements)? = node["a"]?.value else { Issue.record("no array under a"); return }
        #expect(elements.map(\.value) == [.string("é😀\n"), .integer(-12), .number(1.5), .bool(true), .null])
        for junk in [
            "", "{", "[1,]", "{\"a\" 1}", "01", "\"\u{01}\"", "\"\\x\"", "[1] [2]", "tru", "\"\\ud800\"", "{\"a\":1,}",
        ] {
            #expect(throws: JSONSyntaxError.self, "\(junk)") { try JSONParser.parse(Array(junk.utf8)) }
        }
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Array(#"{"s": "\#u{FF}"}"#.utf8) + [0xFF]) }
        let deep = Array(repeating: UInt8(ascii: "["), count: 17) + Array(repeating: UInt8(ascii: "]"), count: 17)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(deep, maxDepth: 16) }
        #expect(try JSONParser.parse(Array(deep.dropFirst().dropLast()), maxDepth: 16).value != .null)
    }

    @Test func entryPathRules() {
        #expect(PackagePath.problem(in: "modules/a/b.lua") == nil)
        #expect(PackagePath.problem(in: "/abs") != nil)
        #expect(PackagePath.problem(in: "a/../b") != nil)
        #expect(PackagePath.problem(in: "a//b") != nil)
        #expect(PackagePath.problem(in: "a/") == "the entry is a directory")
        #expect(PackagePath.problem(in: "a\\b") != nil)
        #expect(PackagePath.problem(in: "a\u{0}b") != nil)
        #expect(PackagePath.precedes("modules/Z.lua", "modules/a.lua"))
    }

    @Test func dosTimesAreUTC() {
        #expect(ZipTimestamps.dosDateTime(utc: 315_532_800) == (date: 0x21, time: 0))
        // 2023-11-14 22:13:20 UTC.
        let stamp = ZipTimestamps.dosDateTime(utc: 1_700_000_000)
        #expect(stamp.date == UInt16((2023 - 1980) << 9 | 11 << 5 | 14))
        #expect(stamp.time == UInt16(22 << 11 | 13 << 5 | 10))
    }
}
