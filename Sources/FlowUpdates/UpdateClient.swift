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

/// What a host links for over-the-air updates: checks a feed, keeps verified downloads in an
/// `UpdateStore`, and at each launch picks the package to run by `UpdatePolicy`, with launch
/// safety: an update that has not been confirmed healthy (`markHealthy()`) by the next
/// launch is marked failed and never chosen again.
///
/// ```swift
/// let updates = try UpdateClient(configuration: .init(feed: feedURL, trustedKeys: [key],
///                                                     store: cachesURL), embedded: embedded)
/// let launch = updates.prepareLaunch()          // the update or the embedded package
/// let loader = try Loader(identifier: id, sources: [launch.source])
/// // … run the start module (`LuaContext.loadStartModule()` finds the update's); should it
/// // throw, `updates.fallBackToEmbedded(reason:)` gives the embedded package to run now.
/// // Once the app is up:
/// updates.markHealthy()
/// updates.checkInBackground { print($0) }       // stored for the next launch
/// ```
public final class UpdateClient: Sendable {
    public struct Configuration: Sendable {
        /// The feed's root: `index.json` and `packages/` are read relative to it.
        public var feed: URL
        public var channel: String
        public var trustedKeys: [PackagePublicKey]
        /// The host's runtime version; nil: the embedded package's `runtimeVersion`.
        public var runtimeVersion: String?
        /// The folder of update stores; each identifier gets its own sub-folder.
        public var store: URL
        /// How many downloaded updates are kept.
        public var keep: Int
        /// Seconds a connection or a read may take.
        public var timeout: TimeInterval
        /// Seconds a whole check may take, index and download together; past it the check
        /// stops (what was received is kept to resume) and the running package keeps running.
        public var deadline: TimeInterval
        /// The largest package this host downloads: an index listing a larger one is refused
        /// before anything is fetched.
        public var maxPackageBytes: Int64

        public init(
            feed: URL, channel: String = UpdateFeed.defaultChannel, trustedKeys: [PackagePublicKey],
            runtimeVersion: String? = nil, store: URL, keep: Int = 3, timeout: TimeInterval = 30,
            deadline: TimeInterval = 120, maxPackageBytes: Int64 = 256 << 20
        ) {
            self.deadline = deadline
            self.maxPackageBytes = maxPackageBytes
            self.feed = feed
            self.channel = channel
            self.trustedKeys = trustedKeys
            self.runtimeVersion = runtimeVersion
            self.store = store
            self.keep = keep
            self.timeout = timeout
        }
    }

    /// What a feed check did, in a sentence.
    public enum CheckOutcome: Equatable, Sendable, CustomStringConvertible {
        case downloaded(version: String, id: String, report: DownloadReport? = nil)
        case alreadyStored(version: String)
        case rolledBack
        /// The feed has nothing for this package (no such channel, another identifier, an
        /// update that failed before).
        case nothingToDo(String)
        case failed(UpdateError)

        public var description: String {
            switch self {
            case let .downloaded(version, id, report):
                var text = "update \(version) (\(id.prefix(12))) downloaded and verified"
                if let report {
                    text += " (fetched \(report.fetched) of \(report.size) bytes"
                    if report.reused > 0 { text += "; \(report.reused) reused from packages on this device" }
                    if report.resumed > 0 { text += "; resumed after \(report.resumed)" }
                    text += ")"
                }
                return text
            case let .alreadyStored(version): return "update \(version) is already downloaded"
            case .rolledBack:
                return "the update feed rolled back to the embedded package; downloaded updates are withdrawn"
            case let .nothingToDo(reason): return reason
            case let .failed(error): return error.description
            }
        }
    }

    /// The package a launch runs and why.
    public struct Launch: Sendable {
        public var plan: UpdatePlan
        /// The primary source: the chosen update, or the embedded package.
        public var source: any PackageSource
        /// One sentence each: updates passed over, an earlier launch marked failed.
        public var messages: [String]
    }

    public let configuration: Configuration
    public let embedded: EmbeddedPackageSource
    public let store: UpdateStore
    /// The stored update this launch runs, if any.
    private let launchedUpdate = Locked<String?>(nil)

    public init(configuration: Configuration, embedded: EmbeddedPackageSource) throws(UpdateError) {
        if let problem = FeedPublisher.channelProblem(configuration.channel) {
            throw .badFeed("channel '\(configuration.channel)': \(problem)")
        }
        self.configuration = configuration
        self.embedded = embedded
        store = try UpdateStore(
            folder: configuration.store.appendingPathComponent(embedded.identifier.rawValue),
            identifier: embedded.identifier, trustedKeys: configuration.trustedKeys,
            keep: configuration.keep)
    }

    // MARK: Checking the feed

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

    // MARK: Launching

    /// Picks the package this launch runs: an update the previous launch did not confirm
    /// healthy is marked failed first; then `UpdatePolicy` decides over the stored updates.
    /// A chosen update is recorded as launching until `markHealthy()`.
    public func prepareLaunch(monitor: SourceSituation.Monitor = .absent) -> Launch {
        var messages: [String] = []
        let state = store.readState()
        var failed = Set(state.failed)
        if let unconfirmed = state.launching {
            failed.insert(unconfirmed)
            let version = (try? PackageReader.readManifest(at: store.url(of: unconfirmed)).version) ?? "?"
            messages.append(
                "update \(version) (\(unconfirmed.prefix(12))) was not confirmed healthy at its last launch; it is marked failed"
            )
        }
        var readers: [String: PackageReader] = [:]
        var candidates: [UpdateSituation.Candidate] = []
        for id in store.storedIDs {
            guard let reader = try? PackageReader(contentsOf: store.url(of: id)) else {
                messages.append("stored update \(id.prefix(12)) no longer opens; it is deleted")
                store.remove(id)
                continue
            }
            readers[id] = reader
            let manifest = reader.manifest
            candidates.append(
                .init(
                    id: id,
                    package: .init(
                        identifier: manifest.identifier, version: manifest.version,
                        runtimeVersion: manifest.runtimeVersion),
                    signature: reader.signatureStatus(trustedKeys: configuration.trustedKeys),
                    failed: failed.contains(id)))
        }
        let embeddedManifest = embedded.manifest
        let situation = UpdateSituation(
            embedded: .init(
                identifier: embeddedManifest.identifier, version: embeddedManifest.version,
                runtimeVersion: embeddedManifest.runtimeVersion),
            hostRuntimeVersion: configuration.runtimeVersion, candidates: candidates, rolledBack: state.rolledBack,
            monitor: monitor)
        var plan = UpdatePolicy.plan(for: situation)
        messages += plan.messages
        var source: any PackageSource = embedded
        var launching: String?
        if case .update(let id) = plan.choice {
            do {
                source = UpdatePackageSource(
                    try EmbeddedPackageSource(
                        contentsOf: store.url(of: id),
                        expectedIdentifier: embedded.identifier))
                launching = id
            } catch {
                failed.insert(id)
                messages.append("update \(id.prefix(12)) cannot be opened (\(error)); it is marked failed")
                plan = UpdatePlan(
                    choice: .embedded, order: plan.order.map { $0 == .downloadedUpdate ? .embeddedPackage : $0 },
                    messages: plan.messages)
            }
        }
        let finalFailed = failed.sorted()
        try? store.updateState {
            $0.failed = finalFailed
            $0.launching = launching
        }
        launchedUpdate.withLock { $0 = launching }
        if let launching {
            let version = readers[launching]?.manifest.version ?? "?"
            messages.append(
                "running update \(version) (\(launching.prefix(12))) instead of the embedded package \(embeddedManifest.version)"
            )
        }
        return Launch(plan: plan, source: source, messages: messages)
    }

    /// The host confirms the launched update works: it stays in use at the next launches.
    public func markHealthy() {
        guard let id = launchedUpdate.withLock({ $0 }) else { return }
        try? store.updateState { state in
            if state.launching == id { state.launching = nil }
            state.lastGood = id
        }
    }

    /// The launched update failed before the host confirmed it healthy (its start module
    /// threw): it is marked failed, and the embedded package is returned to start again in
    /// this same launch. Nil when no update was launched (the embedded package already ran).
    public func fallBackToEmbedded(reason: String) -> Launch? {
        guard let id = launchedUpdate.withLock({ $0 }) else { return nil }
        let version = (try? PackageReader.readManifest(at: store.url(of: id)).version) ?? "?"
        markFailed()
        launchedUpdate.withLock { $0 = nil }
        return Launch(
            plan: UpdatePlan(choice: .embedded, order: [.embeddedPackage]), source: embedded,
            messages: [
                "update \(version) (\(id.prefix(12))) failed before it was confirmed healthy (\(reason)); it is marked failed, and the embedded package \(embedded.manifest.version) runs instead"
            ])
    }

    /// The host saw the launched update fail: it is never chosen again, and the next launch
    /// runs the embedded package (or an earlier good update).
    public func markFailed() {
        guard let id = launchedUpdate.withLock({ $0 }) else { return }
        try? store.updateState { state in
            if state.launching == id { state.launching = nil }
            if !state.failed.contains(id) { state.failed.append(id) }
            if state.lastGood == id { state.lastGood = nil }
        }
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

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
