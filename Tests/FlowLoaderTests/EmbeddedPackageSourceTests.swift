import FlowTestSupport
import FlowLoader
import FlowPackage
import Foundation
import Testing

@Suite struct EmbeddedPackageSourceTests {
    @Test func servesVerifiedModulesWithTheirChunkNamesAndResourcesOnDemand() throws {
        let packages = try TestPackages()
        let url = try packages.make(
            "App.luapkg",
            modules: ["main.lua": "return 1", "pl/tablex.lua": "return {}", "pl/init.lua": "return 'pl'"],
            resources: ["img/logo.png": [1, 2, 3]])
        let source = try EmbeddedPackageSource(
            contentsOf: url, expectedIdentifier: PackageIdentifier("com.example.app"))
        #expect(source.identifier.rawValue == "com.example.app")
        #expect(try source.module(named: ModuleName("pl.tablex"))?.chunkName == "pl/tablex.lua")
        #expect(try source.module(named: ModuleName("pl"))?.chunkName == "pl/init.lua")
        #expect(try source.module(named: ModuleName("main"))?.bytes == Array("return 1".utf8))
        #expect(try source.module(named: ModuleName("nope")) == nil)
        #expect(try source.resource(ResourceKey(name: "img/logo", type: "png")) == [1, 2, 3])
        #expect(try source.resource(ResourceKey(name: "img/logo", type: "jpg")) == nil)
    }

    @Test func aCorruptModuleIsRefusedWhenFirstLoadedAndTheRestIsServed() throws {
        let packages = try TestPackages()
        let url = try packages.make("App.luapkg", modules: ["main.lua": "print('fine')", "util.lua": "return 1"])
        try packages.corrupt(url, entry: "modules/util.lua")
        // Opening reads the central directory and the manifest only: the package opens.
        let source = try EmbeddedPackageSource(contentsOf: url, displayName: "Shown.luapkg")
        #expect(try source.module(named: ModuleName("main"))?.bytes == Array("print('fine')".utf8))
        #expect(try source.module(named: ModuleName("main"))?.chunkName == "Shown.luapkg/modules/main.lua")
        do {
            _ = try source.module(named: ModuleName("util"))
            Issue.record("a corrupt module was served")
        } catch let error as LoaderError {
            guard case .itemRefused(let item, let location, let reason) = error else {
                Issue.record("\(error)"); return
            }
            #expect(item == "module 'util'")
            #expect(location == url.path)
            #expect(reason.hasPrefix("modules/util.lua: sha256 mismatch: the manifest lists "))
        }
        // Every time: a bad entry is never served.
        #expect(throws: LoaderError.self) { _ = try source.module(named: ModuleName("util")) }
    }

    @Test func verifyAllRefusesACorruptEntryWhenThePackageOpens() throws {
        let packages = try TestPackages()
        let url = try packages.make(
            "App.luapkg", modules: ["main.lua": "print('must never run')", "util.lua": "return 1"],
            resources: ["h2g2.txt": Array("forty-two".utf8)])
        #expect(try EmbeddedPackageSource(contentsOf: url, verifyAll: true).manifest.modules.count == 2)
        for entry in ["modules/util.lua", "resources/h2g2.txt"] {
            let copy = packages.folder.appendingPathComponent("Copy-\(entry.count).luapkg")
            try FileManager.default.copyItem(at: url, to: copy)
            try packages.corrupt(copy, entry: entry)
            _ = try EmbeddedPackageSource(contentsOf: copy)
            do {
                _ = try EmbeddedPackageSource(contentsOf: copy, verifyAll: true)
                Issue.record("a corrupt \(entry) was accepted")
            } catch {
                guard case .packageRefused(let location, let reasons) = error else { Issue.record("\(error)"); return }
                #expect(location == copy.path)
                #expect(reasons.count == 1)
                #expect(reasons.first?.hasPrefix("\(entry): sha256 mismatch") == true)
            }
        }
    }

    @Test func unlistedMissingAndDuplicateEntriesAreRefusedAtOpen() throws {
        let packages = try TestPackages()
        let changes: [(String, (inout [(path: String, bytes: [UInt8])]) -> Void, String)] = [
            (
                "unlisted", { $0.append(("resources/extra.txt", [1])) },
                "resources/extra.txt: is in the archive but not listed in the manifest"
            ),
            (
                "missing", { $0.removeAll { $0.path == "modules/util.lua" } },
                "modules/util.lua: is listed in the manifest but missing from the archive"
            ),
            (
                "duplicate", { entries in entries.append(entries.last!) },
                "modules/util.lua: appears 2 times in the archive; a package holds each entry once"
            ),
        ]
        for (name, change, reason) in changes {
            let url = try packages.make("\(name).luapkg", modules: ["main.lua": "return 1", "util.lua": "return 2"])
            try PackageSurgery.rewrite(url, change)
            #expect(throws: LoaderError.packageRefused(location: url.path, reasons: [reason])) {
                _ = try EmbeddedPackageSource(contentsOf: url)
            }
        }
    }

    @Test func aCorruptResourceIsRefusedWhenRead() throws {
        let packages = try TestPackages()
        let url = try packages.make(
            "App.luapkg", modules: ["main.lua": "return 1"], resources: ["h2g2.txt": Array("forty-two".utf8)])
        try packages.corrupt(url, entry: "resources/h2g2.txt")
        let source = try EmbeddedPackageSource(contentsOf: url)
        #expect(throws: LoaderError.self) { _ = try source.resource(ResourceKey(name: "h2g2", type: "txt")) }
    }

    @Test func missingFilesAndOtherIdentifiersAreRefused() throws {
        let packages = try TestPackages()
        let url = try packages.make("App.luapkg", identifier: "com.other.app", modules: ["main.lua": "return 1"])
        #expect(
            throws: LoaderError.identifierMismatch(
                location: url.path, expected: try PackageIdentifier("com.example.app"),
                found: try PackageIdentifier("com.other.app"))
        ) {
            _ = try EmbeddedPackageSource(contentsOf: url, expectedIdentifier: PackageIdentifier("com.example.app"))
        }
        let missing = packages.folder.appendingPathComponent("Missing.luapkg")
        #expect(throws: LoaderError.self) { _ = try EmbeddedPackageSource(contentsOf: missing) }
        let junk = packages.folder.appendingPathComponent("Junk.luapkg")
        try Data("not a zip".utf8).write(to: junk)
        do {
            _ = try EmbeddedPackageSource(contentsOf: junk)
            Issue.record("junk was accepted")
        } catch {
            #expect("\(error)".hasPrefix(junk.path + ":"))
        }
    }
}

@Suite struct PackageLocatorTests {
    @Test func picksThePackageWithTheIdentifier() throws {
        let packages = try TestPackages()
        try packages.make("A.luapkg", identifier: "com.example.a", modules: ["main.lua": "return 1"])
        let b = try packages.make("B.luapkg", identifier: "com.example.b", modules: ["main.lua": "return 1"])
        try Data("junk".utf8).write(to: packages.folder.appendingPathComponent("C.luapkg"))
        #expect(try PackageLocator.locate(PackageIdentifier("com.example.b"), in: [packages.folder]).path == b.path)
    }

    @Test func noneIsAnErrorListingWhatWasFound() throws {
        let packages = try TestPackages()
        let a = try packages.make("A.luapkg", identifier: "com.example.a", modules: ["main.lua": "return 1"])
        let z = try PackageIdentifier("com.example.z")
        do {
            _ = try PackageLocator.locate(z, in: [packages.folder])
            Issue.record("found a package that is not there")
        } catch {
            guard case .packageNotFound(_, let searched, let found) = error else { Issue.record("\(error)"); return }
            #expect(searched == [packages.folder.path])
            #expect(found == [PackageCandidate(path: a.path, identifier: "com.example.a")])
            #expect(
                error.description == """
                    no package with identifier 'com.example.z' in \(packages.folder.path); found:
                      \(a.path) → com.example.a
                    """)
        }
    }

    @Test func severalIsAnErrorListingThem() throws {
        let packages = try TestPackages()
        let one = try packages.make("One.luapkg", modules: ["main.lua": "return 1"])
        let two = try packages.make("Two.luapkg", modules: ["main.lua": "return 2"])
        #expect(
            throws: LoaderError.ambiguousPackage(
                identifier: try PackageIdentifier("com.example.app"), matches: [one.path, two.path],
                found: [
                    PackageCandidate(path: one.path, identifier: "com.example.app"),
                    PackageCandidate(path: two.path, identifier: "com.example.app"),
                ])
        ) {
            _ = try PackageLocator.locate(PackageIdentifier("com.example.app"), in: [packages.folder])
        }
    }
}
