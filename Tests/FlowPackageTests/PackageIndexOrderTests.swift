import FlowTestSupport
import Foundation
import Testing

@testable import FlowPackage

/// Opening a package checks its entry list against the manifest in one pass of comparisons
/// when the archive is in the writer's order, and entry by entry otherwise. Both ways accept
/// the same packages, refuse the same ones, and find every module and resource.
@Suite struct PackageIndexOrderTests {
    let scratch: Scratch
    init() throws { scratch = try Scratch() }

    private func index(_ url: URL) throws -> PackageIndex {
        try PackageIndex.load(path: url.path, limits: .default)
    }

    private func isInManifestOrder(_ index: PackageIndex, first expected: Int) -> Bool {
        if case .inManifestOrder(let first) = index.locations { return first == expected }
        return false
    }

    @Test func writerPackagesAreReadInTheirOwnOrder() throws {
        let sample = try SampleProject(scratch)
        let url = try sample.write()
        let opened = try index(url)
        #expect(opened.problems.isEmpty)
        #expect(isInManifestOrder(opened, first: 1))
        #expect(opened.decoded.table != nil, "the writer's manifest was not kept in its bytes")

        let reader = try PackageReader(contentsOf: url)
        #expect(reader.module(named: try ModuleName("ui"))?.path == "modules/ui/init.lua")
        #expect(reader.module(named: try ModuleName("main"))?.path == "modules/main.lua")
        #expect(reader.module(named: try ModuleName("ui.init")) == nil)
        #expect(reader.module(named: try ModuleName("missing")) == nil)
        #expect(
            String(decoding: try reader.moduleData(ModuleName("ui")), as: UTF8.self) == "return { title = 'Hello' }\n")
        let logo = try ResourceKey(name: "img/logo", type: "png")
        #expect(try reader.resourceData(logo) == noise(40_000, seed: 42))
        #expect(reader.resource(try ResourceKey(name: "img/logo", type: "jpg")) == nil)
        #expect(reader.verify().isEmpty)

        var signing = PackageWriteOptions()
        signing.signingKey = PackageSigningKey()
        let signed = try sample.write(to: "Signed.luapkg", options: signing)
        let signedIndex = try index(signed)
        #expect(isInManifestOrder(signedIndex, first: 2))
        #expect(signedIndex.signature != nil)
        #expect(try PackageReader(contentsOf: signed).moduleData(ModuleName("ui")).count > 0)
    }

    /// The writer's own manifest (kept in its bytes, `ManifestTable`) in an archive whose entries
    /// are in another order, or whose central directory is not in file order: every entry is
    /// still found, and read from the right place.
    @Test(arguments: ["entries reversed", "directory out of file order"])
    func aWriterManifestInAnotherArchiveOrderIsServedFromItsTable(order: String) throws {
        let source = try SampleProject(scratch).write()
        let url = scratch.path("reordered.luapkg")
        try HostileZip.make(
            url,
            """
            src = zipfile.ZipFile(\(String(reflecting: source.path)))
            names = [i.filename for i in src.infolist()]
            data = {n: src.read(n) for n in names}
            if \(String(reflecting: order)) == "entries reversed":
                write(sys.argv[1], [(names[0], data[names[0]])] + [(n, data[n]) for n in reversed(names[1:])])
            else:
                write(sys.argv[1], [(n, data[n]) for n in names])
                b = bytearray(open(sys.argv[1], 'rb').read())
                end = b.rfind(b'PK\\x05\\x06')
                count, size, offset = struct.unpack_from('<HII', b, end + 10)
                records = []; i = offset
                for _ in range(count):
                    n, e, c = struct.unpack_from('<HHH', b, i + 28)
                    records.append(bytes(b[i:i + 46 + n + e + c])); i += 46 + n + e + c
                b[offset:offset + size] = records[0] + b''.join(reversed(records[1:]))
                open(sys.argv[1], 'wb').write(b)
            """)
        let opened = try index(url)
        #expect(opened.problems.isEmpty)
        #expect(opened.decoded.table != nil)
        guard case .byPath = opened.locations else {
            Issue.record("a reordered archive was read as if in the manifest's order")
            return
        }
        let reader = try PackageReader(contentsOf: url)
        #expect(reader.module(named: try ModuleName("ui"))?.path == "modules/ui/init.lua")
        #expect(
            String(decoding: try reader.moduleData(ModuleName("ui")), as: UTF8.self) == "return { title = 'Hello' }\n")
        #expect(try reader.moduleData(ModuleName("main")).count > 0)
        #expect(try reader.resourceData(ResourceKey(name: "img/logo", type: "png")) == noise(40_000, seed: 42))
        #expect(reader.verify().isEmpty)
        #expect(reader.manifest == (try PackageReader(contentsOf: source)).manifest)
    }

    @Test func anArchiveInAnotherOrderIsCheckedEntryByEntry() throws {
        let url = scratch.path("reversed.luapkg")
        try HostileZip.make(
            url,
            """
            m, e = valid_entries()
            write(sys.argv[1], [("manifest.json", json.dumps(m))] + list(reversed(e)))
            """)
        let opened = try index(url)
        #expect(opened.problems.isEmpty)
        guard case .byPath = opened.locations else {
            Issue.record("a reversed archive was read as if in the manifest's order")
            return
        }
        let reader = try PackageReader(contentsOf: url)
        #expect(try reader.moduleData(ModuleName("main")) == Array("return 1\n".utf8))
        #expect(try reader.moduleData(ModuleName("ui")) == Array("return {}\n".utf8))
        #expect(reader.module(named: try ModuleName("missing")) == nil)
    }

    @Test func aManifestListedInAnotherOrderStillOpens() throws {
        let url = scratch.path("unsorted.luapkg")
        try HostileZip.make(
            url,
            """
            m, e = valid_entries()
            m["modules"].reverse()
            write(sys.argv[1], [("manifest.json", json.dumps(m))] + e)
            """)
        let opened = try index(url)
        #expect(opened.problems.isEmpty)
        guard case .byPath = opened.locations else {
            Issue.record("an archive not in the manifest's order was read as if it were")
            return
        }
        #expect(try PackageReader(contentsOf: url).moduleData(ModuleName("ui")) == Array("return {}\n".utf8))
    }

    @Test func listingTwiceIsFoundInSortedListsToo() throws {
        // Sorted by path, so only the checks the sorted order cannot rule out can find these.
        let both = try openProblems(
            "both.luapkg",
            """
            ui, init = b"return 1\\n", b"return 2\\n"
            m = manifest([("main", "modules/main.lua", b"x"), ("ui", "modules/ui.lua", ui), ("ui", "modules/ui/init.lua", init)])
            write(sys.argv[1], [("manifest.json", json.dumps(m)), ("modules/main.lua", b"x"), ("modules/ui.lua", ui), ("modules/ui/init.lua", init)])
            """)
        #expect(both.map(\.message) == ["module ui is listed 2 times"])

        let samePath = try openProblems(
            "same.luapkg",
            """
            m = manifest([("main", "modules/main.lua", b"x"), ("main", "modules/main.lua", b"x")])
            write(sys.argv[1], [("manifest.json", json.dumps(m)), ("modules/main.lua", b"x")])
            """)
        #expect(samePath.map(\.message) == ["module main is listed 2 times", "modules/main.lua is listed 2 times"])

        // `a.init` at `a/init.lua` next to `a` at `a.lua` are two modules, as stock Lua sees them.
        let url = scratch.path("init.luapkg")
        try HostileZip.make(
            url,
            """
            m = manifest([("a", "modules/a.lua", b"return 'a'"), ("a.init", "modules/a/init.lua", b"return 'init'"), ("main", "modules/main.lua", b"x")])
            write(sys.argv[1], [("manifest.json", json.dumps(m)), ("modules/a.lua", b"return 'a'"), ("modules/a/init.lua", b"return 'init'"), ("modules/main.lua", b"x")])
            """)
        let reader = try PackageReader(contentsOf: url)
        #expect(try reader.moduleData(ModuleName("a")) == Array("return 'a'".utf8))
        #expect(try reader.moduleData(ModuleName("a.init")) == Array("return 'init'".utf8))
    }

    @Test func namesEqualToSwiftButNotInBytesAreNotShortcut() throws {
        // NFD `mcafé` sorts before NFC `mcafé` in bytes, yet Swift compares them equal: two
        // modules of one name, which only the tables comparing as Swift does can find.
        let twins = try openProblems(
            "twins.luapkg",
            """
            nfd, nfc = "mcafe\\u0301", "mcaf\\u00e9"
            m = manifest([("main", "modules/main.lua", b"x"), (nfd, f"modules/{nfd}.lua", b"return 'nfd'"), (nfc, f"modules/{nfc}.lua", b"return 'nfc'")])
            write(sys.argv[1], [("manifest.json", json.dumps(m, ensure_ascii=False)), ("modules/main.lua", b"x"), (f"modules/{nfd}.lua", b"return 'nfd'"), (f"modules/{nfc}.lua", b"return 'nfc'")])
            """)
        #expect(twins.count == 2)
        #expect(twins.allSatisfy { $0.message.hasSuffix("is listed 2 times") })

        // A non-ASCII module is found under either spelling, whatever the archive's order.
        for (name, order) in [("nfc.luapkg", "e"), ("nfc-reversed.luapkg", "list(reversed(e))")] {
            let url = scratch.path(name)
            try HostileZip.make(
                url,
                """
                nfc = "mcaf\\u00e9"
                m = manifest([("main", "modules/main.lua", b"x"), (nfc, f"modules/{nfc}.lua", b"return 'nfc'"), ("mcafz", "modules/mcafz.lua", b"z")])
                e = [("modules/main.lua", b"x"), (f"modules/{nfc}.lua", b"return 'nfc'"), ("modules/mcafz.lua", b"z")]
                write(sys.argv[1], [("manifest.json", json.dumps(m, ensure_ascii=False))] + \(order))
                """)
            let reader = try PackageReader(contentsOf: url)
            #expect(try reader.moduleData(ModuleName("mcafe\u{301}")) == Array("return 'nfc'".utf8), "\(name)")
            #expect(try reader.moduleData(ModuleName("mcaf\u{e9}")) == Array("return 'nfc'".utf8), "\(name)")
        }

        // An ASCII package in the writer's order: the Kelvin sign is `K` to Swift, as before.
        let url = scratch.path("kelvin.luapkg")
        try HostileZip.make(
            url,
            """
            m = manifest([("K", "modules/K.lua", b"return 'k'"), ("main", "modules/main.lua", b"x")])
            write(sys.argv[1], [("manifest.json", json.dumps(m)), ("modules/K.lua", b"return 'k'"), ("modules/main.lua", b"x")])
            """)
        let kelvin = try PackageReader(contentsOf: url)
        #expect(try kelvin.moduleData(ModuleName("\u{212A}")) == Array("return 'k'".utf8))
    }

    @Test func namesAZipFlagsAsUTF8AreReadAsWritten() throws {
        // Python's zipfile (like Info-ZIP) flags non-ASCII names as UTF-8; libarchive would turn
        // them into the C locale's charset and lose them.
        let url = scratch.path("flagged.luapkg")
        try HostileZip.make(
            url,
            """
            name, body = "d\\u00e9j\\u00e0", b"return 'vu'"
            m = manifest([("main", "modules/main.lua", b"x"), (name, f"modules/{name}.lua", body)], [("caf\\u00e9", "txt", "resources/caf\\u00e9.txt", b"hi")])
            write(sys.argv[1], [("manifest.json", json.dumps(m)), ("modules/main.lua", b"x"), (f"modules/{name}.lua", body), ("resources/caf\\u00e9.txt", b"hi")])
            assert zipfile.ZipFile(sys.argv[1]).getinfo(f"modules/{name}.lua").flag_bits & 0x800
            """)
        let reader = try PackageReader(contentsOf: url)
        #expect(try reader.moduleData(ModuleName("d\u{e9}j\u{e0}")) == Array("return 'vu'".utf8))
        #expect(try reader.resourceData(ResourceKey(name: "caf\u{e9}", type: "txt")) == Array("hi".utf8))
        #expect(reader.verify().isEmpty)
        #expect(PackageReader.verify(at: url).isEmpty)
    }

    /// The manifest problems of a package that must be refused.
    private func openProblems(_ name: String, _ script: String) throws -> [PackageProblem] {
        let url = scratch.path(name)
        try HostileZip.make(url, script)
        do {
            _ = try PackageReader(contentsOf: url)
        } catch let error as PackageError {
            return error.problems
        }
        Issue.record("\(name) opened")
        return []
    }
}
