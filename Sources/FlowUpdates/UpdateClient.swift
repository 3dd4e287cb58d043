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
///
/// Checking the feed is in UpdateClient+Check.swift, the launch and its guard in
/// UpdateClient+Launch.swift.
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
    let launchedUpdate = Locked<String?>(nil)

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
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
