import FlowTestSupport
import Foundation
import Testing
@testable import FlowPackage

@Suite struct PackageReaderTests {
    let scratch: Scratch
    let project: SampleProject
    let package: URL

    init() throws {
        scratch = try Scratch()
        project = try SampleProject(scratch)
        package = try project.write()
    }

    @Test func servesModulesAndResourcesChecked() throws {
        let reader = try PackageReader(contentsOf: package)
        #expect(try reader.moduleData(ModuleName("main")) == Array("local ui = require 'ui'\nprint(ui.title)\n".utf8))
        #expect(try reader.moduleData(ModuleName("ui")) == Array("return { title = 'Hello' }\n".utf8))
        let all = try reader.allModules()
        #expect(all.count == 2)
        #expect(all[try ModuleName("ui")] == Array("return { title = 'Hello' }\n".utf8))
        #expect(
            try reader.resourceData(ResourceKey(name: "texts/h2g2", type: "txt"))
                == Array(String(repeating: "Don't panic. ", count: 2000).utf8))
        #expect(try reader.resourceData(ResourceKey(name: "img/logo", type: "png")) == noise(40_000, seed: 42))
    }

    @Test func unknownNamesAreClearErrors() throws {
        let reader = try PackageReader(contentsOf: package)
        #expect {
            try reader.moduleData(ModuleName("nope"))
        } throws: { "\($0)" == "\(package.path): the package has no module nope" }
        #expect {
            try reader.resourceData(ResourceKey(name: "nope", type: "png"))
        } throws: { "\($0)" == "\(package.path): the package has no resource nope.png" }
    }

    @Test func readManifestReadsOnlyTheManifest() throws {
        let manifest = try PackageReader.readManifest(at: package)
        #expect(manifest == (try PackageReader(contentsOf: package)).manifest)
    }

    @Test func soundPackageVerifiesClean() throws {
        #expect(try PackageReader(contentsOf: package).verify().isEmpty)
        #expect(PackageReader.verify(at: package).isEmpty)
        #expect(
            PackageReader.verify(at: package, expectedIdentifier: try PackageIdentifier("com.example.sample")).isEmpty)
    }

    @Test func identifierMismatchIsReported() throws {
        let other = try PackageIdentifier("com.example.other")
        #expect(
            PackageReader.verify(at: package, expectedIdentifier: other)
                == [
                    PackageProblem(
                        .identifierMismatch, entry: "manifest.json",
                        message: "the package is com.example.sample, not com.example.other")
                ])
        let reader = try PackageReader(contentsOf: package)
        #expect(
            throws: PackageError.identifierMismatch(
                path: package.path, expected: other, found: reader.manifest.identifier)
        ) {
            try reader.checkIdentifier(other)
        }
    }

    @Test func concurrentReadsAreSafe() throws {
        let reader = try PackageReader(contentsOf: package)
        final class Failures: @unchecked Sendable { var count = 0; let lock = NSLock() }
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            let ok: Bool
            if index % 2 == 0 {
                ok = (try? reader.resourceData(ResourceKey(name: "img/logo", type: "png"))) == noise(40_000, seed: 42)
            } else {
                ok = (try? reader.allModules())?.count == 2
            }
            if !ok { failures.lock.lock(); failures.count += 1; failures.lock.unlock() }
        }
        #expect(failures.count == 0)
    }
}
