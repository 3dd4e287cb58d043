import FlowPackage
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a static update feed into a folder that any static web server or object store
/// serves (`flowpkg publish`).
///
/// Order makes it atomic for readers: the package is copied in first, under a name made of
/// its SHA-256, through a temporary file and a rename; then the index is written the same
/// way. A client reading at any moment sees the old index (whose packages are all still
/// there) or the new one, never a half-written file or an index naming a missing package.
public enum FeedPublisher {
    /// What a publish did.
    public struct Outcome: Equatable, Sendable {
        public var channel: String
        public var entry: UpdateFeed.Entry
        /// The index file written.
        public var index: URL
        /// Things to tell the user (an unsigned package, a package already in the feed).
        public var notes: [String]
    }

    /// How the index is signed and how long it stays valid.
    public struct IndexSigning: Sendable {
        public var key: PackageSigningKey
        /// Seconds from now until clients refuse the index (publish again before then).
        public var validFor: TimeInterval
        public var now: Date

        public init(key: PackageSigningKey, validFor: TimeInterval = 30 * 86_400, now: Date = Date()) {
            self.key = key
            self.validFor = validFor
            self.now = now
        }
    }

    /// Publishes `package` to `channel` of the feed at `folder` (created if missing), signing
    /// the index with `signing`. A package of another identifier than the channel's current
    /// entry is refused unless `force`.
    public static func publish(
        package: URL, to folder: URL, channel: String, signing: IndexSigning, force: Bool = false
    ) throws(UpdateError) -> Outcome {
        try checkChannel(channel)
        let problems = PackageReader.verify(at: package)
        if !problems.isEmpty {
            throw .notPublished(
                "\(package.path) does not verify:\n"
                    + problems.map { "  \(package.path): \($0)" }.joined(separator: "\n"))
        }
        let reader: PackageReader
        do { reader = try PackageReader(contentsOf: package) } catch {
            throw .notPublished("\(error)")
        }
        let manifest = reader.manifest
        var notes: [String] = []
        var keyID: String?
        switch reader.signatureStatus(trustedKeys: []) {
        case .untrustedKey(let id), .trusted(let id), .invalid(let id): keyID = id
        case .unsigned, .malformed: break
        }
        if !reader.isSigned {
            notes.append(
                "warning: \(package.path) is not signed: clients refuse unsigned updates; export it with --sign KEY")
        }
        let current = try readIndex(in: folder)?.channels[channel]
        if let current, current.identifier != manifest.identifier.rawValue {
            guard force else {
                throw .notPublished(
                    "channel '\(channel)' serves \(current.identifier), and \(package.path) is \(manifest.identifier); publish it to another channel or feed, or pass --force to replace the channel's app"
                )
            }
            notes.append(
                "warning: channel '\(channel)' served \(current.identifier); it now serves \(manifest.identifier) (--force)"
            )
        }
        if let current, current.kind == .package, let previous = current.keyID, let keyID, previous != keyID {
            notes.append(
                "warning: \(package.path) is signed by key \(keyID), but the channel's current package by key \(previous): clients that trust only the old key will refuse it"
            )
        }
        if let keyID, keyID != signing.key.publicKey.keyID {
            notes.append(
                "warning: the package is signed by key \(keyID) and the index by key \(signing.key.publicKey.keyID): clients must trust both"
            )
        }
        let packages = folder.appendingPathComponent("packages")
        try makeFolder(packages)
        let (sha256, size) = try AtomicFiles.sha256(of: package)
        let path = "packages/\(sha256).luapkg"
        let target = folder.appendingPathComponent(path)
        if FileManager.default.fileExists(atPath: target.path) {
            notes.append("\(path) was already in the feed")
        } else {
            try AtomicFiles.copy(package, to: target)
        }
        let entry = UpdateFeed.Entry(
            kind: .package, identifier: manifest.identifier.rawValue, version: manifest.version,
            runtimeVersion: manifest.runtimeVersion, path: path, size: size, sha256: sha256,
            signed: reader.isSigned, keyID: keyID, directoryOffset: ZipLayout.read(target)?.directoryOffset)
        let index = try writeIndex(in: folder, channel: channel, entry: entry, signing: signing)
        return Outcome(channel: channel, entry: entry, index: index, notes: notes)
    }

    /// Publishes a rollback on `channel`: clients of `identifier` go back to their embedded package.
    public static func rollback(
        identifier: PackageIdentifier, in folder: URL, channel: String, signing: IndexSigning
    ) throws(UpdateError) -> Outcome {
        try checkChannel(channel)
        try makeFolder(folder)
        let entry = UpdateFeed.Entry(kind: .rollback, identifier: identifier.rawValue)
        let index = try writeIndex(in: folder, channel: channel, entry: entry, signing: signing)
        return Outcome(channel: channel, entry: entry, index: index, notes: [])
    }

    /// Why `name` cannot be a channel, or nil.
    public static func channelProblem(_ name: String) -> String? {
        if name.isEmpty || name.utf8.count > 64 { return "a channel name is 1 to 64 characters" }
        let ok = name.utf8.allSatisfy {
            (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0)
                || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".")
        }
        return ok ? nil : "a channel name holds only ASCII letters, digits, '-', '_' and '.'"
    }

    private static func checkChannel(_ channel: String) throws(UpdateError) {
        if let problem = channelProblem(channel) { throw .badFeed("channel '\(channel)': \(problem)") }
    }

    private static func makeFolder(_ folder: URL) throws(UpdateError) {
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw .store(path: folder.path, reason: failureReason(error))
        }
    }

    /// The feed's index as it is now, or nil when there is none.
    /// Why clients would refuse what publishing `package` with `signing` makes: an unsigned
    /// package, a package signed by another key than the index's (`--sign`), or an index key
    /// other than the one the channel's current package was signed with. `flowpkg publish`
    /// needs `--force` for each. Nil when none applies, or when the package cannot be read
    /// (`publish` reports that itself).
    public static func trustProblem(package: URL, in folder: URL, channel: String, signing: IndexSigning) -> String? {
        guard let reader = try? PackageReader(contentsOf: package) else { return nil }
        let indexKey = signing.key.publicKey.keyID
        var packageKey: String?
        switch reader.signatureStatus(trustedKeys: []) {
        case .untrustedKey(let id), .trusted(let id), .invalid(let id): packageKey = id
        case .unsigned, .malformed: break
        }
        guard reader.isSigned, let packageKey else {
            return "\(package.path) is not signed: clients refuse unsigned updates; export it with --sign KEY"
        }
        if packageKey != indexKey {
            return
                "\(package.path) is signed by key \(packageKey) and --sign gives key \(indexKey): a client trusting one refuses the other"
        }
        if let current = (try? readIndex(in: folder))??.channels[channel], current.kind == .package,
            let channelKey = current.keyID, channelKey != indexKey
        {
            return
                "channel '\(channel)' is signed with key \(channelKey), and --sign gives key \(indexKey): its clients trust the old key and would refuse the new index"
        }
        return nil
    }

    static func readIndex(in folder: URL) throws(UpdateError) -> UpdateFeed? {
        let index = folder.appendingPathComponent(UpdateFeed.indexName)
        guard FileManager.default.fileExists(atPath: index.path) else { return nil }
        let bytes: [UInt8]
        do { bytes = Array(try Data(contentsOf: index)) } catch {
            throw .store(path: index.path, reason: failureReason(error))
        }
        do { return try UpdateFeed.decode(bytes) } catch {
            throw .store(
                path: index.path,
                reason: "it is not a feed index (\(error)); move it away or publish to another folder")
        }
    }

    /// Replaces `channel`'s entry in the index, keeping the other channels; the index's version
    /// goes up, its expiry is renewed, and it is signed again.
    private static func writeIndex(
        in folder: URL, channel: String, entry: UpdateFeed.Entry, signing: IndexSigning
    ) throws(UpdateError) -> URL {
        let index = folder.appendingPathComponent(UpdateFeed.indexName)
        var feed = try readIndex(in: folder) ?? UpdateFeed()
        feed.channels[channel] = entry
        // One more than before, and at least the time in seconds: a feed made again from
        // nothing still goes forward for clients that saw the old one.
        feed.version = max((feed.version ?? 0) + 1, Int64(signing.now.timeIntervalSince1970))
        feed.expires = UpdateFeed.timestamp(signing.now.addingTimeInterval(signing.validFor))
        feed.sign(with: signing.key)
        try AtomicFiles.write(feed.encoded(), to: index)
        return index
    }
}
