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
