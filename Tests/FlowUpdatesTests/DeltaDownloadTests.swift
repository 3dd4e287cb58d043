import FlowLoader
import FlowPackage
import Foundation
import FlowTestSupport
import Testing

@testable import FlowUpdates

/// Downloads that cost what changed: a device holding an earlier version fetches only the
/// entries it lacks, and an interrupted download resumes; either way the package stored is
/// byte for byte the one published, checked as a full download is.
@Suite struct DeltaDownloadTests {
    typealias World = UpdateClientTests.World

    /// Three resources of random bytes (incompressible, as media are), shared by both
    /// versions, written once.
    static func resources(in world: World) throws -> [PackageInput.Resource] {
        var resources: [PackageInput.Resource] = []
        for index in 0..<3 {
            let file = world.root.appendingPathComponent("res\(index).bin")
            var generator = SystemRandomNumberGenerator()
            try Data((0..<200_000).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: file)
            resources.append(.init(key: try ResourceKey(name: "media/res\(index)", type: "bin"), file: file))
        }
        return resources
    }

    static func package(
        _ world: World, version: String, main: String, resources: [PackageInput.Resource], signed: Bool = true
    ) throws -> URL {
        let source = world.root.appendingPathComponent("main-\(version).lua")
        try Data(main.utf8).write(to: source)
        var input = PackageInput(
            identifier: world.identifier, name: "App", version: version, startModule: try ModuleName("main"),
            modules: [.init(name: try ModuleName("main"), relativePath: "main.lua", file: source)],
            resources: resources)
        input.runtimeVersion = "1"
        var options = PackageWriteOptions()
        options.signingKey = signed ? world.key : nil
        let output = world.root.appendingPathComponent("App-\(version).luapkg")
        try PackageWriter.write(input, to: output, options: options)
        return output
    }

    static func sha256(_ url: URL) throws -> String {
        try referenceSHA256(Array(try Data(contentsOf: url)))
    }

    @Test func aOneModuleChangeFetchesOnlyWhatChanged() throws {
        let world = try World()
        defer { world.remove() }
        let resources = try Self.resources(in: world)
        let embedded = try Self.package(world, version: "1.0.0", main: "print('1.0.0')\n", resources: resources)
        let update = try Self.package(world, version: "1.1.0", main: "print('1.1.0, changed')\n", resources: resources)
        _ = try FeedPublisher.publish(package: update, to: world.feed, channel: "production", signing: world.signing)
        let client = try world.client(embedded: embedded)
        guard case .downloaded(_, let id, let report?) = client.checkForUpdate() else {
            Issue.record("no download")
            return
        }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: update.path)[.size] as? Int)
        #expect(report.size == Int64(size))
        #expect(report.reused >= 600_000, "\(report)")
        #expect(report.fetched < 20_000, "\(report)")
        #expect(id == (try Self.sha256(update)))
        #expect(try Self.sha256(client.store.url(of: id)) == (try Self.sha256(update)))
        #expect(try world.code(client.prepareLaunch()) == "print('1.1.0, changed')\n")
    }

    @Test func aDeltaThatDoesNotAddUpIsReplacedByAFullDownload() throws {
        let world = try World()
        defer { world.remove() }
        let resources = try Self.resources(in: world)
        let embedded = try Self.package(world, version: "1.0.0", main: "print('1.0.0')\n", resources: resources)
        let update = try Self.package(world, version: "1.1.0", main: "print('1.1.0')\n", resources: resources)
        // The device's copy of a shared entry is damaged where the directory cannot tell
        // (its data, not its header): the assembled file's SHA-256 is wrong.
        var bytes = try Data(contentsOf: embedded)
        let layout = try #require(ZipLayout.read(embedded))
        let shared = try #require(layout.spans.last)
        bytes[Int(shared.start + shared.length / 2)] ^= 0xFF
        try bytes.write(to: embedded)
        _ = try FeedPublisher.publish(package: update, to: world.feed, channel: "production", signing: world.signing)
        let client = try UpdateClient(
            configuration: .init(feed: world.feed, trustedKeys: [world.key.publicKey], store: world.stores),
            embedded: try EmbeddedPackageSource(contentsOf: embedded))
        let outcome = client.checkForUpdate()
        guard case .downloaded(_, let id, let report?) = outcome else {
            Issue.record("no download: \(outcome)")
            return
        }
        #expect(report.reused == 0, "\(report)")
        #expect(try Self.sha256(client.store.url(of: id)) == (try Self.sha256(update)))
    }

    @Test func anInterruptedDownloadResumes() throws {
        let world = try World()
        defer { world.remove() }
        let resources = try Self.resources(in: world)
        // No shared entries with the embedded package: a plain download.
        let embedded = try world.package("1.0.0", signedBy: .some(nil))
        let update = try Self.package(world, version: "1.1.0", main: "print('1.1.0')\n", resources: resources)
        let outcome = try FeedPublisher.publish(
            package: update, to: world.feed, channel: "production", signing: world.signing)
        let sha = try #require(outcome.entry.sha256)
        let client = try world.client(embedded: embedded)
        // What an earlier check left when its connection broke: the first 250,000 bytes.
        let bytes = try Data(contentsOf: update)
        try bytes.prefix(250_000).write(to: client.store.partialURL(sha))
        // A new store opened meanwhile (the next launch) keeps it.
        let relaunched = try world.client(embedded: embedded)
        guard case .downloaded(_, let id, let report?) = relaunched.checkForUpdate() else {
            Issue.record("no download")
            return
        }
        #expect(report.resumed == 250_000)
        #expect(report.fetched == Int64(bytes.count) - 250_000)
        #expect(id == sha)
        #expect(try Self.sha256(relaunched.store.url(of: id)) == sha)
    }

    @Test func aResumedDownloadWhosePartIsWrongIsDeleted() throws {
        let world = try World()
        defer { world.remove() }
        let embedded = try world.package("1.0.0", signedBy: .some(nil))
        let update = try world.package("1.1.0")
        let outcome = try FeedPublisher.publish(
            package: update, to: world.feed, channel: "production", signing: world.signing)
        let sha = try #require(outcome.entry.sha256)
        let client = try world.client(embedded: embedded)
        try Data(repeating: 0x41, count: 100).write(to: client.store.partialURL(sha))
        guard case .failed(.refused(_, let reason)) = client.checkForUpdate() else {
            Issue.record("not refused")
            return
        }
        #expect(reason.contains("the download's SHA-256 is"), "\(reason)")
        #expect(!FileManager.default.fileExists(atPath: client.store.partialURL(sha).path))
        // The next check starts afresh and succeeds.
        guard case .downloaded = client.checkForUpdate() else {
            Issue.record("no download after the bad part was deleted")
            return
        }
    }

    @Test func theLaunchedUpdateFallsBackToEmbeddedInTheSameLaunch() throws {
        let world = try World()
        defer { world.remove() }
        let embedded = try world.package("1.0.0", signedBy: .some(nil))
        _ = try FeedPublisher.publish(
            package: try world.package("1.1.0"), to: world.feed, channel: "production", signing: world.signing)
        let client = try world.client(embedded: embedded)
        _ = client.checkForUpdate()
        let launch = client.prepareLaunch()
        #expect(launch.source.kind == .downloadedUpdate)
        #expect(launch.source.startModule == (try ModuleName("main")))
        let fallback = try #require(client.fallBackToEmbedded(reason: "boom"))
        #expect(fallback.source.kind == .embeddedPackage)
        #expect(fallback.messages.first?.contains("failed before it was confirmed healthy (boom)") == true)
        #expect(try world.code(fallback) == "print('1.0.0')\n")
        // Once is enough: the embedded package has no fallback.
        #expect(client.fallBackToEmbedded(reason: "again") == nil)
        #expect(try world.client(embedded: embedded).prepareLaunch().source.kind == .embeddedPackage)
    }

    /// With many shared entries the zip directory outweighs what changed: only the changed
    /// entries' directory records are fetched, not the whole directory.
    @Test func onlyTheChangedEntriesDirectoryRecordsAreFetched() throws {
        let world = try World()
        defer { world.remove() }
        var resources: [PackageInput.Resource] = []
        for index in 0..<60 {
            let file = world.root.appendingPathComponent("small\(index).txt")
            try Data("resource \(index)\n".utf8).write(to: file)
            resources.append(
                .init(key: try ResourceKey(name: "texts/resource-number-\(index)", type: "txt"), file: file))
        }
        let embedded = try Self.package(world, version: "1.0.0", main: "print('1.0.0')\n", resources: resources)
        let update = try Self.package(world, version: "1.1.0", main: "print('1.1.0')\n", resources: resources)
        _ = try FeedPublisher.publish(package: update, to: world.feed, channel: "production", signing: world.signing)
        let layout = try #require(ZipLayout.read(update))
        let directory = layout.fileSize - layout.directoryOffset
        // What changed: manifest.json, manifest.sig and main.lua, the first three entries.
        let changed = layout.spans.prefix(3).reduce(Int64(0)) { $0 + $1.length }
        #expect(directory > 5_000)
        let client = try world.client(embedded: embedded)
        guard case .downloaded(_, let id, let report?) = client.checkForUpdate() else {
            Issue.record("no download")
            return
        }
        #expect(report.fetched < changed + 1_000, "\(report), changed \(changed), directory \(directory)")
        #expect(report.reused > 0)
        #expect(try Self.sha256(client.store.url(of: id)) == (try Self.sha256(update)))
    }
}
