import FlowLoader
import FlowPackage
import FlowTestSupport
import Foundation
import Testing

/// The app folder is listed a block of names at a time (`getdents64` on Linux): every `.luapkg`
/// among many other files is seen, whatever block it falls in, so two packages with one
/// identifier are still refused and a package is found wherever it is listed.
@Suite struct PackageLocatorListingTests {
    /// Fills `folder` with `count` other files of long names: many blocks of names to list.
    private func fill(_ folder: URL, count: Int) throws {
        let padding = String(repeating: "x", count: 120)
        for index in 0..<count {
            try Data().write(to: folder.appendingPathComponent("other-\(padding)-\(index).txt"))
        }
    }

    @Test func twoPackagesWithOneIdentifierAmongManyFilesAreRefused() throws {
        let packages = try TestPackages()
        try fill(packages.folder, count: 600)
        let one = try packages.make("One.luapkg", modules: ["main.lua": "return 1"])
        let two = try packages.make("Two.luapkg", modules: ["main.lua": "return 2"])
        try packages.make("Other.luapkg", identifier: "com.example.other", modules: ["main.lua": "return 3"])
        let identifier = try PackageIdentifier("com.example.app")
        do {
            _ = try PackageLocator.open(identifier, in: [packages.folder])
            Issue.record("two packages with one identifier were not refused")
        } catch let LoaderError.ambiguousPackage(_, matches, found) {
            #expect(matches == [one.path, two.path])
            #expect(found.count == 3)
        }
        try FileManager.default.removeItem(at: two)
        let source = try PackageLocator.open(identifier, in: [packages.folder])
        #expect(source.location == one.path)
        #expect(
            try PackageLocator.open(PackageIdentifier("com.example.other"), in: [packages.folder]).location
                == packages.folder.appendingPathComponent("Other.luapkg").path)
    }

    @Test func aFolderGivenWithEscapesOrASlashIsListedAsItsPath() throws {
        let packages = try TestPackages()
        let spaced = packages.folder.appendingPathComponent("my apps %20")
        try FileManager.default.createDirectory(at: spaced, withIntermediateDirectories: true)
        let package = try PackageFixtures.write(
            spaced.appendingPathComponent("App.luapkg"), identifier: "com.example.app", start: "main",
            modules: ["main.lua": "return 1"], resources: [:])
        let identifier = try PackageIdentifier("com.example.app")
        for folder in [spaced, URL(fileURLWithPath: spaced.path + "/"), URL(fileURLWithPath: spaced.path)] {
            #expect(try PackageLocator.open(identifier, in: [folder]).location == package.path)
        }
        let missing = packages.folder.appendingPathComponent("none")
        #expect(throws: LoaderError.self) { _ = try PackageLocator.open(identifier, in: [missing]) }
    }
}
