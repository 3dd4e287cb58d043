import FlowLoader
import FlowPackage
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension UpdateClient {
    /// The default deadline of a check a launch waits for (`checkForUpdate()`): a slow feed must
    /// not hold a start for long (expo-updates waits 0 s by default). A background check keeps
    /// `Configuration.deadline`.
    public static let blockingDeadline: TimeInterval = 10

    /// Reads the feed and, when its channel offers a package not yet stored, downloads,
    /// checks and stores it; a rollback entry withdraws the stored updates. Never throws:
    /// whatever goes wrong, the package running now keeps running. The caller waits at most
    /// `deadline` seconds (by default `blockingDeadline`, or the configuration's when shorter).
    public func checkForUpdate(deadline: TimeInterval? = nil) -> CheckOutcome {
        let seconds = deadline ?? min(Self.blockingDeadline, configuration.deadline)
        do {
            return try check(deadline: seconds)
        } catch {
            return .failed(error)
        }
    }

    /// `checkForUpdate()` on another thread; `completion` gets its outcome there.
    @discardableResult
    public func checkInBackground(_ completion: @escaping @Sendable (CheckOutcome) -> Void = { _ in })
        -> BackgroundCheck
    {
        let check = BackgroundCheck()
        DetachedThread.start { [self] in
            let outcome = checkForUpdate(deadline: configuration.deadline)
            completion(outcome)
            check.finish(outcome)
        }
        return check
    }

    private func check(deadline seconds: TimeInterval) throws(UpdateError) -> CheckOutcome {
        let deadline = CheckDeadline(seconds: seconds)
        let indexURL = configuration.feed.appendingPathComponent(UpdateFeed.indexName)
        let feed = try UpdateFeed.decode(
            FeedTransport.fetch(
                indexURL, limit: Int64(UpdateFeed.maxIndexBytes),
                timeout: configuration.timeout, deadline: deadline))
        // Nothing in an index is acted on (not even a rollback) unless the trusted key signed
        // it, it has not expired, and it is not older than one accepted before.
        if let refusal = feed.refusal(
            trustedKeys: configuration.trustedKeys, now: Date(), acceptedVersion: store.readState().indexVersion)
        {
            throw .badFeed(refusal)
        }
        if let version = feed.version {
            try store.updateState { $0.indexVersion = max($0.indexVersion ?? 0, version) }
        }
        let channel = configuration.channel
        guard let entry = feed.channels[channel] else {
            return .nothingToDo(
                "the update feed has no channel '\(channel)' (it has: "
                    + (feed.channels.keys.sorted().joined(separator: ", ").nilIfEmpty ?? "none") + ")")
        }
        guard entry.identifier == embedded.identifier.rawValue else {
            return .nothingToDo(
                "the update feed's channel '\(channel)' is for \(entry.identifier), not \(embedded.identifier); no update downloaded"
            )
        }
        switch entry.kind {
        case .rollback:
            let inUse = launchedUpdate.withLock { $0 }
            try store.updateState { $0.rolledBack = true }
            for id in store.storedIDs where id != inUse { store.remove(id) }
            return .rolledBack
        case .package:
            return try checkPackage(entry, channel: channel, deadline: deadline)
        }
    }

    /// The channel offers a package: downloaded, checked and stored unless it failed before,
    /// the policy would refuse it, or it is already stored.
    private func checkPackage(_ entry: UpdateFeed.Entry, channel: String, deadline: CheckDeadline)
        throws(UpdateError) -> CheckOutcome
    {
        guard let path = entry.path, UpdateFeed.isPackagePath(path), let sha = entry.sha256 else {
            throw .badFeed(
                "the entry for channel '\(channel)' has no valid \"path\" (packages/<sha256>.luapkg) and \"sha256\""
            )
        }
        let version = entry.version ?? "?"
        let state = store.readState()
        if state.failed.contains(sha) {
            return .nothingToDo(
                "update \(version) (\(sha.prefix(12))) failed at an earlier launch; it is not downloaded again")
        }
        // What the index says is checked before downloading: a package the policy would
        // refuse is not fetched. (The index is not trusted: a stored package is judged again
        // by its signed manifest at every launch.)
        let offered = UpdateSituation.Candidate(
            id: sha,
            package: .init(identifier: embedded.identifier, version: version, runtimeVersion: entry.runtimeVersion),
            signature: .trusted(keyID: ""))
        let embeddedManifest = embedded.manifest
        let situation = UpdateSituation(
            embedded: .init(
                identifier: embeddedManifest.identifier, version: embeddedManifest.version,
                runtimeVersion: embeddedManifest.runtimeVersion),
            hostRuntimeVersion: configuration.runtimeVersion)
        if let reason = UpdatePolicy.refusal(
            offered, situation: situation,
            runtime: configuration.runtimeVersion ?? embeddedManifest.runtimeVersion,
            embeddedVersion: PackageVersion(embeddedManifest.version))
        {
            return .nothingToDo("the feed offers update \(version) (\(sha.prefix(12))); not downloaded: \(reason)")
        }
        if store.storedIDs.contains(sha) {
            if state.rolledBack { try store.updateState { $0.rolledBack = false } }
            return .alreadyStored(version: version)
        }
        // Packages on the device whose entries a delta download may reuse.
        let local = [URL(fileURLWithPath: embedded.location)] + store.storedIDs.map { store.url(of: $0) }
        let report = try store.download(
            entry, from: configuration.feed.appendingPathComponent(path), local: local,
            timeout: configuration.timeout, deadline: deadline, maxBytes: configuration.maxPackageBytes)
        let id = report.id
        try store.updateState { $0.rolledBack = false }
        let inUse = launchedUpdate.withLock { $0 }
        let lastGood = store.readState().lastGood
        store.prune(protecting: Set([id] + [inUse, lastGood].compactMap { $0 }))
        return .downloaded(version: version, id: id, report: report)
    }
}

/// A feed check running on another thread.
public final class BackgroundCheck: Sendable {
    private let outcome = Awaited<UpdateClient.CheckOutcome?>(nil)

    func finish(_ outcome: UpdateClient.CheckOutcome) {
        self.outcome.withLock { $0 = outcome }
    }

    /// Waits until the check is done or `timeout` passes; nil when it is still running.
    public func wait(timeout: TimeInterval) -> UpdateClient.CheckOutcome? {
        outcome.wait(until: { $0 }, deadline: Date(timeIntervalSinceNow: timeout))
    }
}
