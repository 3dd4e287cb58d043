/// What a host knows at start-up about the places its code can come from.
///
/// The primary source is the embedded package (or, for `flowpkg run DIR`, the project folder);
/// the live source exists only in a debug host that created a development monitor.
public struct SourceSituation: Equatable, Sendable {
    /// The development monitor and its live source.
    public enum Monitor: Equatable, Sendable {
        /// A release host: no monitor compiled in or enabled. Nothing listens, nothing remote is read.
        case absent
        /// A live source connected within the connection timeout.
        case connected
        /// The monitor waited the connection timeout and nothing connected.
        case notConnected
        /// A live source connected but was refused (another identifier, failed authentication).
        case refused(reason: String)
    }

    /// The primary source.
    public enum Primary: Equatable, Sendable {
        case ready(SourceKind)
        /// Missing, corrupt or of another identifier; `location` names the file.
        case unusable(location: String, reason: String)
    }

    public var monitor: Monitor
    public var primary: Primary

    public init(monitor: Monitor, primary: Primary) {
        self.monitor = monitor
        self.primary = primary
    }
}

/// The outcome of the policy: which sources serve, highest priority first.
public struct SourcePlan: Equatable, Sendable {
    /// The sources to ask, highest priority first; empty when `failure` is set.
    public var order: [SourceKind]
    /// Whether a live source that connects later takes over from then on.
    public var acceptsLaterConnection: Bool
    /// Things the host should tell the developer (a refused live source), one sentence each.
    public var warnings: [String]
    /// Why nothing can run, naming the file and the reason; nil when `order` is usable.
    public var failure: String?

    public init(
        order: [SourceKind], acceptsLaterConnection: Bool = false, warnings: [String] = [],
        failure: String? = nil
    ) {
        self.order = order
        self.acceptsLaterConnection = acceptsLaterConnection
        self.warnings = warnings
        self.failure = failure
    }
}

/// DESIGN.md's "Which source wins at start-up", as one pure function of the situation.
public enum SourcePolicy {
    public static func plan(for situation: SourceSituation) -> SourcePlan {
        var warnings: [String] = []
        let liveServes: Bool
        switch situation.monitor {
        case .absent, .notConnected:
            liveServes = false
        case .connected:
            liveServes = true
        case .refused(let reason):
            liveServes = false
            warnings.append("live source refused: \(reason); using the embedded code")
        }
        // A monitor that did not get a live source in time keeps listening; a refused one does
        // not, since the same source would be refused again.
        let later = situation.monitor == .notConnected

        switch situation.primary {
        case .ready(let kind):
            return SourcePlan(
                order: liveServes ? [.live, kind] : [kind], acceptsLaterConnection: later,
                warnings: warnings)
        case .unusable(let location, let reason):
            let problem = "\(location): \(reason)"
            if liveServes {
                // During development the live source can carry the whole program on its own.
                return SourcePlan(order: [.live], warnings: warnings + ["embedded package unusable: \(problem)"])
            }
            return SourcePlan(order: [], warnings: warnings, failure: problem)
        }
    }
}
