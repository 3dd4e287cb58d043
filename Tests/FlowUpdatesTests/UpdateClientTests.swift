import FlowLoader
import FlowPackage
import FlowTestSupport
import FlowUpdates
import Foundation
import Testing

/// The update client over a `file://` feed: real packages, real store on disk.
@Suite struct UpdateClientTests {
    struct World {
        let root: URL
        let key = PackageSigningKey()
        let identifier = try! PackageIdentifier("com.example.app")
        var feed: URL { root.appendingPathComponent("feed", isDirectory: true) }
        var stores: URL { root.appendingPathComponent("stores", isDirectory: true) }
        var signing: FeedPublisher.IndexSigning { .init(key: key) }

        init() throws {
            root = try Scratch("updates").url
        }

        func remove() { try? FileManager.default.removeItem(at: root) }

        /// A package of `version` whose main module prints `text`.
        func package(
            _ version: String, text: String? = nil, signedBy signer: PackageSigningKey?? = .none,
            runtime: String? = "1"
        ) throws -> URL {
            let source = root.appendingPathComponent("src-\(version)-\(UUID().uuidString.prefix(4)).lua")
            try Data("print('\(text ?? version)')\n".utf8).write(to: source)
            var input = PackageInput(
                identifier: identifier, name: "App", version: version, startModule: try ModuleName("main"),
                modules: [.init(name: try ModuleName("main"), relativePath: "main.lua", file: source)],
                resources: [])
            input.runtimeVersion = runtime
            var options = PackageWriteOptions()
            switch signer {
            case .none: options.signingKey = key
            case .some(let other): options.signingKey = other
            }
            let output = root.appendingPathComponent("App-\(version)-\(UUID().uuidString.prefix(4)).luapkg")
            try PackageWriter.write(input, to: output, options: options)
            return output
        }

        func client(embedded: URL, keep: Int = 3) throws -> UpdateClient {
            try UpdateClient(
                configuration: .init(feed: feed, trustedKeys: [key.publicKey], store: stores, keep: keep),
                embedded: try EmbeddedPackageSource(contentsOf: embedded))
        }

        func code(_ launch: UpdateClient.Launch) throws -> String {
            String(decoding: try launch.source.module(named: try ModuleName("main"))?.bytes ?? [], as: UTF8.self)
        }
    }

    @Test func downloadsVerifiesAndRunsANewerUpdate() throws {
        let world = try World()
        defer { world.remove() }
        let embedded = try world.package("1.0.0", signedBy: .some(nil))
        _ = try FeedPublisher.publish(
            package: try world.package("1.1.0"), to: world.feed, channel: "production", signing: world.signing)
        let client = try world.client(embedded: embedded)
        guard case .downloaded(let version, _, _) = client.checkForUpdate() else { Issue.record("no download"); return }
        #expect(version == "1.1.0")
        let launch = client.prepareLaunch()
        #expect(launch.source.kind == .downloadedUpdate)
        #expect(try world.code(launch) == "print('1.1.0')\n")
        client.markHealthy()
        // Healthy: the next launch keeps it.
        #expect(try world.client(embedded: embedded).prepareLaunch().source.kind == .downloadedUpdate)
    }

    @Test func unconfirmedLaunchIsMarkedFailedAtTheNextOneAndAnEarlierGoodUpdateRuns() throws {
        let world = try World()
        defer { world.remove() }
        let embedded = try world.package("1.0.0", signedBy: .some(nil))
        _ = try FeedPublisher.publish(
            package: try world.package("1.1.0"), to: world.feed, channel: "production", signing: world.signing)
        let first = try world.client(embedded: embedded)
        _ = first.checkForUpdate()
        _ = first.prepareLaunch()
        first.markHealthy()
        _ = try FeedPublisher.publish(
            package: try world.package("1.2.0"), to: world.feed, channel: "production", signing: world.signing)
        let second = try world.client(embedded: embedded)
        _ = second.checkForUpdate()
        #expect(try world.code(second.prepareLaunch()) == "print('1.2.0')\n")
        // No markHealthy: the process "crashed".
        let third = try world.client(embedded: embedded)
        let launch = third.prepareLaunch()
        #expect(
            launch.messages.contains {
                $0.contains("update 1.2.0")
                    && $0.contains("was not confirmed healthy at its last launch; it is marked failed")
            })
        #expect(try world.code(launch) == "print('1.1.0')\n")
    }

    @Test func storeKeepsABoundedNumber() throws {
        let world = try World()
        defer { world.remove() }
        let embedded = try world.package("1.0.0", signedBy: .some(nil))
        let client = try world.client(embedded: embedded, keep: 2)
        for version in ["1.1.0", "1.2.0", "1.3.0", "1.4.0"] {
            _ = try FeedPublisher.publish(
                package: try world.package(version), to: world.feed, channel: "production", signing: world.signing)
            guard case .downloaded = client.checkForUpdate() else { Issue.record("no download of \(version)"); return }
        }
        let stored = try FileManager.default.contentsOfDirectory(
            atPath: world.stores.appendingPathComponent("com.example.app/packages").path)
        #expect(stored.count == 2)
        #expect(try world.code(client.prepareLaunch()) == "print('1.4.0')\n")
    }

    @Test func corruptStoredUpdateIsNotUsed() throws {
        let world = try World()
        defer { world.remove() }
        let embedded = try world.package("1.0.0", signedBy: .some(nil))
        _ = try FeedPublisher.publish(
            package: try world.package("1.1.0"), to: world.feed, channel: "production", signing: world.signing)
        let client = try world.client(embedded: embedded)
        guard case .downloaded(_, let id, _) = client.checkForUpdate() else { Issue.record("no download"); return }
        // Damaged on disk after it was stored: the module's SHA-256 no longer matches.
        let file = world.stores.appendingPathComponent("com.example.app/packages/\(id).luapkg")
        var bytes = try Data(contentsOf: file)
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: file)
        let launch = try world.client(embedded: embedded).prepareLaunch()
        #expect(launch.source.kind == .embeddedPackage)
        #expect(launch.plan.choice == .embedded)
    }

    @Test func feedProblemsAreReportedAndChangeNothing() throws {
        let world = try World()
        defer { world.remove() }
        let embedded = try world.package("1.0.0", signedBy: .some(nil))
        let client = try world.client(embedded: embedded)
        guard case .failed(let missing) = client.checkForUpdate() else { Issue.record("expected a failure"); return }
        #expect(missing.description.contains("index.json cannot be read: no such file"))
        try FileManager.default.createDirectory(at: world.feed, withIntermediateDirectories: true)
        try Data("{\"feedVersion\": 9, \"channels\": {}}".utf8).write(
            to: world.feed.appendingPathComponent("index.json"))
        #expect(client.checkForUpdate() == .failed(.badFeed("feed version 9 is not supported (this flowpkg reads 1)")))
        try Data("[]".utf8).write(to: world.feed.appendingPathComponent("index.json"))
        guard case .failed(.badFeed(let reason)) = client.checkForUpdate() else {
            Issue.record("expected bad feed"); return
        }
        #expect(reason.hasPrefix("the index is not a feed index"))
        #expect(client.prepareLaunch().source.kind == .embeddedPackage)
    }
}
