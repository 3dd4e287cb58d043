import FlowLoader
import FlowPackage
import Foundation
import Testing

@testable import FlowUpdates

/// The index is signed, versioned and expires: a feed an attacker can change cannot roll a
/// client back, replay an old index, or point it outside the store.
@Suite struct FeedTrustTests {
    typealias World = UpdateClientTests.World

    /// Everything in the store folder, as relative paths.
    func storeContents(_ world: World) -> [String] {
        let root = world.root
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var paths: [String] = []
        while let path = enumerator?.nextObject() as? String { paths.append(path) }
        return paths.filter { !$0.hasPrefix("feed") && !$0.hasPrefix("src-") && !$0.hasPrefix("App-") }.sorted()
    }

    /// Rewrites the index with `change` applied, signed by `key` (nil: left unsigned).
    func rewriteIndex(_ world: World, signedBy key: PackageSigningKey?, _ change: (inout UpdateFeed) -> Void) throws {
        let url = world.feed.appendingPathComponent("index.json")
        var feed = try UpdateFeed.decode(Array(try Data(contentsOf: url)))
        change(&feed)
        feed.signature = nil
        if let key { feed.sign(with: key) }
        try Data(feed.encoded()).write(to: url)
    }

    @Test func publishSignsAVersionedExpiringIndex() throws {
        let world = try World()
        defer { world.remove() }
        let index = world.feed.appendingPathComponent("index.json")
        _ = try FeedPublisher.publish(
            package: try world.package("1.1.0"), to: world.feed, channel: "production", signing: world.signing)
        let first = try UpdateFeed.decode(Array(try Data(contentsOf: index)))
        _ = try FeedPublisher.publish(
            package: try world.package("1.2.0"), to: world.feed, channel: "beta", signing: world.signing)
        let feed = try UpdateFeed.decode(Array(try Data(contentsOf: index)))
        let version = try #require(feed.version)
        #expect(version > (try #require(first.version)))
        // At least the time in seconds: a feed made again from nothing still goes forward.
        #expect(version >= Int64(Date().timeIntervalSince1970) - 60)
        #expect(feed.refusal(trustedKeys: [world.key.publicKey], now: Date(), acceptedVersion: version) == nil)
        #expect(feed.channels["production"]?.keyID == world.key.publicKey.keyID)
        #expect((feed.channels["production"]?.directoryOffset ?? 0) > 0)
        // Thirty days by default: refused after that.
        let later = Date(timeIntervalSinceNow: 31 * 86_400)
        #expect(
            feed.refusal(trustedKeys: [world.key.publicKey], now: later, acceptedVersion: nil)?.contains("expired")
                == true)
    }

    /// Each tampered index: the check fails, nothing is downloaded or withdrawn, the running
    /// package stays.
    @Test(arguments: ["unsigned", "other key", "changed after signing", "expired", "replayed", "rollback unsigned"])
    func refusedIndexChangesNothing(_ attack: String) throws {
        let world = try World()
        defer { world.remove() }
        let embedded = try world.package("1.0.0", signedBy: .some(nil))
        _ = try FeedPublisher.publish(
            package: try world.package("1.1.0"), to: world.feed, channel: "production", signing: world.signing)
        let client = try world.client(embedded: embedded)
        let old = try Data(contentsOf: world.feed.appendingPathComponent("index.json"))
        _ = try FeedPublisher.publish(
            package: try world.package("1.2.0"), to: world.feed, channel: "production", signing: world.signing)
        guard case .downloaded(let version, _, _) = client.checkForUpdate() else {
            Issue.record("no download")
            return
        }
        #expect(version == "1.2.0")
        let stored = try FileManager.default.contentsOfDirectory(
            atPath: world.stores.appendingPathComponent("com.example.app/packages").path)
        let expected: String
        switch attack {
        case "unsigned":
            try rewriteIndex(world, signedBy: nil) { $0.version = 9 }
            expected = "the index is not signed"
        case "other key":
            try rewriteIndex(world, signedBy: PackageSigningKey()) { $0.version = 9 }
            expected = "which is not a trusted key"
        case "changed after signing":
            let url = world.feed.appendingPathComponent("index.json")
            var feed = try UpdateFeed.decode(Array(try Data(contentsOf: url)))
            feed.version = (feed.version ?? 0) + 1  // the signature left as it was
            try Data(feed.encoded()).write(to: url)
            expected = "the index was changed after it was signed"
        case "expired":
            try rewriteIndex(world, signedBy: world.key) { $0.expires = "2020-01-01T00:00:00Z" }
            expected = "the index expired at 2020-01-01T00:00:00Z"
        case "replayed":
            try old.write(to: world.feed.appendingPathComponent("index.json"))
            expected = "already seen (a replayed index)"
        default:
            try rewriteIndex(world, signedBy: nil) {
                $0.channels["production"] = .init(kind: .rollback, identifier: "com.example.app")
            }
            expected = "the index is not signed"
        }
        guard case .failed(.badFeed(let reason)) = client.checkForUpdate() else {
            Issue.record("\(attack): the index was not refused")
            return
        }
        #expect(reason.contains(expected), "\(attack): \(reason)")
        #expect(
            try FileManager.default.contentsOfDirectory(
                atPath: world.stores.appendingPathComponent("com.example.app/packages").path) == stored)
        #expect(try world.code(client.prepareLaunch()) == "print('1.2.0')\n", "\(attack)")
    }

    /// Hostile index contents: refused before anything is fetched or written.
    @Test(arguments: ["../../x", "deep", "huge", "declared too large"])
    func hostileIndexIsRefused(_ attack: String) throws {
        let world = try World()
        defer { world.remove() }
        let embedded = try world.package("1.0.0", signedBy: .some(nil))
        _ = try FeedPublisher.publish(
            package: try world.package("1.1.0"), to: world.feed, channel: "production", signing: world.signing)
        let url = world.feed.appendingPathComponent("index.json")
        var maxBytes: Int64 = 256 << 20
        let expected: String
        switch attack {
        case "../../x":
            try rewriteIndex(world, signedBy: world.key) { $0.channels["production"]?.path = "../../x" }
            expected = "has no valid \"path\""
        case "deep":
            try Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8).write(
                to: url)
            expected = "the index nests deeper than"
        case "huge":
            try Data(repeating: UInt8(ascii: " "), count: (1 << 20) + 10).write(to: url)
            expected = "larger than 1048576 bytes"
        default:
            try rewriteIndex(world, signedBy: world.key) { $0.channels["production"]?.size = 1 << 40 }
            maxBytes = 1 << 20
            expected = "the feed lists it at 1099511627776 bytes, more than this host's limit of 1048576"
        }
        let client = try UpdateClient(
            configuration: .init(
                feed: world.feed, trustedKeys: [world.key.publicKey], store: world.stores, maxPackageBytes: maxBytes),
            embedded: try EmbeddedPackageSource(contentsOf: embedded))
        let outcome = client.checkForUpdate()
        #expect(outcome.description.contains(expected), "\(attack): \(outcome)")
        // Nothing stored, nothing partial, nothing outside the store.
        #expect(storeContents(world).allSatisfy { $0.hasPrefix("stores") && !$0.hasSuffix(".part") }, "\(attack)")
        #expect(
            (try? FileManager.default.contentsOfDirectory(
                atPath: world.stores.appendingPathComponent("com.example.app/packages").path))?.isEmpty ?? true)
        #expect(
            !FileManager.default.fileExists(
                atPath: world.root.deletingLastPathComponent().appendingPathComponent("x").path))
        #expect(client.prepareLaunch().source.kind == .embeddedPackage)
    }
}
