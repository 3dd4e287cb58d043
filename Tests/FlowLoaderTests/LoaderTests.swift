import FlowTestSupport
import FlowLoader
import FlowPackage
import Testing

@Suite struct LoaderTests {
    let id = try! PackageIdentifier("com.example.app")

    @Test func asksSourcesInPriorityOrderAndRecordsProvenance() throws {
        let live = try MemorySource(kind: .live, location: "http://127.0.0.1:7315", modules: ["main": "return 'live'"])
        let embedded = try MemorySource(
            kind: .embeddedPackage, location: "/app/App.luapkg",
            modules: ["main": "return 'embedded'", "util": "return 1"],
            resources: ["h2g2.txt": "42"])
        let loader = try Loader(identifier: id, sources: [live, embedded])
        #expect(String(decoding: try loader.module(named: ModuleName("main")).bytes, as: UTF8.self) == "return 'live'")
        #expect(try loader.module(named: ModuleName("util")).chunkName == "util.lua")
        #expect(try loader.resource(ResourceKey(name: "h2g2", type: "txt")) == Array("42".utf8))
        #expect(
            loader.loadedItems.map(\.description) == [
                "module main <- live http://127.0.0.1:7315",
                "module util <- package /app/App.luapkg",
                "resource h2g2.txt <- package /app/App.luapkg",
            ])
    }

    @Test func aLaterSourceTakesOverAndProvenanceFollows() throws {
        let embedded = try MemorySource(
            kind: .embeddedPackage, location: "/app/App.luapkg", modules: ["main": "return 1"])
        let loader = try Loader(identifier: id, sources: [embedded])
        _ = try loader.module(named: ModuleName("main"))
        let live = try MemorySource(kind: .live, location: "http://h", modules: ["main": "return 2"])
        try loader.insert(live)
        _ = try loader.module(named: ModuleName("main"))
        #expect(
            loader.loadedItems == [
                LoadedItem(item: .module(try ModuleName("main")), source: .live, location: "http://h")
            ])
        loader.removeSources(of: .live)
        #expect(loader.sources.map(\.kind) == [.embeddedPackage])
    }

    /// DESIGN.md's last row: a module in no source fails with every place searched.
    @Test func moduleInNoSourceListsEveryPlace() throws {
        let live = try MemorySource(kind: .live, location: "http://127.0.0.1:7315")
        let embedded = try MemorySource(kind: .embeddedPackage, location: "/app/App.luapkg")
        let loader = try Loader(identifier: id, sources: [live, embedded])
        #expect(
            throws: LoaderError.moduleNotFound(
                try ModuleName("pl.tablex"),
                searched: ["live http://127.0.0.1:7315", "package /app/App.luapkg"])
        ) {
            _ = try loader.module(named: ModuleName("pl.tablex"))
        }
        let error = LoaderError.moduleNotFound(
            try ModuleName("x"), searched: ["package /a.luapkg", "folder /p/Sources"])
        #expect(
            error.description
                == "module 'x' not found:\n\tno module 'x' in package /a.luapkg\n\tno module 'x' in folder /p/Sources")
        #expect(throws: LoaderError.self) { _ = try loader.resource(ResourceKey(name: "logo", type: "png")) }
        #expect(loader.loadedItems.isEmpty)
    }

    @Test func aBrokenItemIsRefusedNotSkipped() throws {
        let live = try MemorySource(kind: .live, location: "http://h", modules: ["main": "return 1"])
        live.broken = ["main"]
        let embedded = try MemorySource(kind: .embeddedPackage, location: "/a.luapkg", modules: ["main": "return 2"])
        let loader = try Loader(identifier: id, sources: [live, embedded])
        #expect(throws: LoaderError.itemRefused(item: "module 'main'", location: "http://h", reason: "digest mismatch"))
        {
            _ = try loader.module(named: ModuleName("main"))
        }
    }

    @Test func sourcesOfAnotherIdentifierAreRefused() throws {
        let other = try MemorySource(kind: .embeddedPackage, location: "/o.luapkg", identifier: "com.other.app")
        #expect(
            throws: LoaderError.identifierMismatch(
                location: "/o.luapkg", expected: id,
                found: try PackageIdentifier("com.other.app"))
        ) {
            _ = try Loader(identifier: id, sources: [other])
        }
        let loader = try Loader(identifier: id, sources: [])
        #expect(throws: LoaderError.self) { try loader.insert(other) }
    }
}
