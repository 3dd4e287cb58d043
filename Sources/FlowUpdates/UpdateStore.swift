#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import FlowPackage
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Downloaded updates of one package identifier, on disk:
///
/// ```
/// <folder>/packages/<sha256>.luapkg   verified updates, named by their file's SHA-256
/// <folder>/downloads/<sha256>.part    a download in progress, or an interrupted one to resume
/// <folder>/state.json                 failed updates, the launch not yet confirmed, rollback
/// ```
///
/// A download goes to `downloads/`, is checked (size and SHA-256 against the feed, every
/// rule of `flowpkg verify`, the identifier, a signature by a trusted key) and only then
/// renamed into `packages/`; anything that fails a check is deleted, never used (a transfer
/// cut short is kept, and resumed with an HTTP range at the next check). At most `keep`
/// updates are kept. Processes sharing a store take turns through `<folder>/lock` (flock(2),
/// released by the system when a process ends): the state file is read, changed and rewritten
/// under it, and a partial download is deleted at open only when no process holds it.
public final class UpdateStore: Sendable {
    /// What the store remembers between launches.
    struct State: Codable, Equatable {
        /// Updates whose launch failed before the host confirmed it healthy.
        var failed: [String] = []
        /// The update the current (or last) launch runs, until the host confirms it healthy.
        var launching: String?
        /// The last update confirmed healthy.
        var lastGood: String?
        /// The feed's last word was a rollback.
        var rolledBack = false
        /// The highest index version accepted: an older index is a replay and is refused.
        var indexVersion: Int64?
    }

    public let folder: URL
    public let identifier: PackageIdentifier
    public let trustedKeys: [PackagePublicKey]
    public let keep: Int
    /// Held while the state file is read or rewritten, so two threads never interleave.
    private let stateAccess = Locked<Void>(())

    var packages: URL { folder.appendingPathComponent("packages") }
    var downloads: URL { folder.appendingPathComponent("downloads") }
    var stateFile: URL { folder.appendingPathComponent("state.json") }

    /// Opens (creating) the store at `folder`; a partial download left by a process that
    /// stopped mid-way is deleted.
    public init(folder: URL, identifier: PackageIdentifier, trustedKeys: [PackagePublicKey], keep: Int = 3)
        throws(UpdateError)
    {
        self.folder = folder
        self.identifier = identifier
        self.trustedKeys = trustedKeys
        self.keep = max(1, keep)
        for sub in [packages, downloads] {
            do { try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true) } catch {
                throw .store(path: sub.path, reason: failureReason(error))
            }
        }
        removeStaleDownloads(keeping: nil)
    }

    /// The stored update `id`'s file.
    public func url(of id: String) -> URL { packages.appendingPathComponent("\(id).luapkg") }

    /// The ids of the stored updates.
    public var storedIDs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: packages.path)) ?? []).compactMap { name in
            guard name.hasSuffix(".luapkg") else { return nil }
            let id = String(name.dropLast(".luapkg".count))
            return isSHA256(id) ? id : nil
        }.sorted()
    }

    // MARK: State

    func readState() -> State {
        stateAccess.withLock { _ in
            guard let data = try? Data(contentsOf: stateFile) else { return State() }
            // A damaged state file forgets failures; the policy still refuses anything unsigned.
            return (try? JSONDecoder().decode(State.self, from: data)) ?? State()
        }
    }

    func updateState(_ change: (inout State) -> Void) throws(UpdateError) {
        try stateAccess.withLock { _ throws(UpdateError) in
            try withStoreLock { () throws(UpdateError) in try rewriteState(change) }
        }
    }

    /// Runs `body` holding `<folder>/lock`, waiting while another process holds it.
    func withStoreLock<Result>(_ body: () throws(UpdateError) -> Result) throws(UpdateError) -> Result {
        let lockFile = folder.appendingPathComponent("lock")
        let descriptor = open(lockFile.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .store(path: lockFile.path, reason: String(cString: strerror(errno)))
        }
        // Closing the descriptor releases the lock.
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .store(path: lockFile.path, reason: String(cString: strerror(errno))) }
        }
        return try body()
    }

    private func rewriteState(_ change: (inout State) -> Void) throws(UpdateError) {
        var state = (try? JSONDecoder().decode(State.self, from: Data(contentsOf: stateFile))) ?? State()
        change(&state)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFiles.write(Array((try? encoder.encode(state)) ?? Data()), to: stateFile)
    }

    // MARK: Downloads

    /// Every check a downloaded package must pass before it is stored.
    func check(_ file: URL, version: String?, limits: PackageLimits = .default) throws(UpdateError) {
        let reader: PackageReader
        do { reader = try PackageReader(contentsOf: file, limits: limits) } catch {
            throw .refused(version: version, reason: "\(error)".replacingAll(file.path + ": ", with: ""))
        }
        let status = reader.signatureStatus(trustedKeys: trustedKeys)
        guard status.isTrusted else { throw .refused(version: reader.manifest.version, reason: status.description) }
        if reader.manifest.identifier != identifier {
            throw .refused(
                version: reader.manifest.version,
                reason: "the package is \(reader.manifest.identifier), not \(identifier)")
        }
        let problems = reader.verify(expectedIdentifier: identifier)
        if !problems.isEmpty {
            throw .refused(
                version: reader.manifest.version, reason: problems.map(\.description).joined(separator: "; "))
        }
    }

    /// Deletes stored updates beyond `keep`, newest versions first, never one in `protected`.
    func prune(protecting protected: Set<String>) {
        var versions: [(id: String, version: PackageVersion?)] = []
        for id in storedIDs {
            let manifest = try? PackageReader.readManifest(at: url(of: id))
            versions.append((id, manifest.flatMap { PackageVersion($0.version) }))
        }
        versions.sort { lhs, rhs in
            switch (lhs.version, rhs.version) {
            case let (l?, r?): return r < l
            case (.some, nil): return true
            default: return false
            }
        }
        var kept = 0
        for (id, _) in versions {
            if protected.contains(id) { continue }
            if kept < keep - protected.count { kept += 1; continue }
            try? FileManager.default.removeItem(at: url(of: id))
        }
    }

    /// Deletes a stored update (refused or withdrawn).
    func remove(_ id: String) {
        try? FileManager.default.removeItem(at: url(of: id))
    }
}

/// Whether `text` is 64 lowercase hex digits, as the package format writes a SHA-256.
func isSHA256(_ text: String) -> Bool {
    ManifestRules.isSHA256(text)
}
