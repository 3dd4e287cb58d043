import FlowLoader
import FlowPackage

/// What the host knows at start-up about its embedded package and the downloaded updates.
public struct UpdateSituation: Equatable, Sendable {
    /// A package's facts the policy looks at.
    public struct Package: Equatable, Sendable {
        public var identifier: PackageIdentifier
        public var version: String
        public var runtimeVersion: String?

        public init(identifier: PackageIdentifier, version: String, runtimeVersion: String? = nil) {
            self.identifier = identifier
            self.version = version
            self.runtimeVersion = runtimeVersion
        }
    }

    /// A downloaded update in the store.
    public struct Candidate: Equatable, Sendable {
        /// The store's name for it: the package file's SHA-256.
        public var id: String
        public var package: Package
        /// Its signature checked against the host's trusted keys.
        public var signature: SignatureStatus
        /// A launch with it failed before the host confirmed it healthy.
        public var failed: Bool

        public init(id: String, package: Package, signature: SignatureStatus, failed: Bool = false) {
            self.id = id
            self.package = package
            self.signature = signature
            self.failed = failed
        }
    }

    public var embedded: Package
    /// The runtime version the host declares; nil: the host runs whatever the embedded
    /// package was built for (its `runtimeVersion`).
    public var hostRuntimeVersion: String?
    public var candidates: [Candidate]
    /// The feed's last word was a rollback: back to the embedded package.
    public var rolledBack: Bool
    /// The development monitor, as `SourcePolicy` sees it: a live source outranks both.
    public var monitor: SourceSituation.Monitor

    public init(
        embedded: Package, hostRuntimeVersion: String? = nil, candidates: [Candidate] = [],
        rolledBack: Bool = false, monitor: SourceSituation.Monitor = .absent
    ) {
        self.embedded = embedded
        self.hostRuntimeVersion = hostRuntimeVersion
        self.candidates = candidates
        self.rolledBack = rolledBack
        self.monitor = monitor
    }
}

/// The policy's answer: which package is primary, the source order, and why each
/// downloaded update was passed over.
public struct UpdatePlan: Equatable, Sendable {
    public enum Choice: Equatable, Sendable {
        case embedded
        /// The downloaded update with this store id.
        case update(id: String)
    }

    public var choice: Choice
    /// The sources to ask, highest first (the live source, then the chosen package).
    public var order: [SourceKind]
    /// One sentence per update not used, and the live source's warnings.
    public var messages: [String]

    public init(choice: Choice, order: [SourceKind], messages: [String] = []) {
        self.choice = choice
        self.order = order
        self.messages = messages
    }
}

/// "Embedded over remote", as one pure function: a downloaded update is used only when it is
/// signed by a trusted key, of the embedded package's identifier, built for the host's
/// runtime version, strictly newer than the embedded package, not marked failed, and the
/// feed has not rolled back; the newest such update wins. Otherwise the embedded package.
/// A live development source (debug hosts) still comes first, as `SourcePolicy` has it.
public enum UpdatePolicy {
    public static func plan(for situation: UpdateSituation) -> UpdatePlan {
        var messages: [String] = []
        var best: (candidate: UpdateSituation.Candidate, version: PackageVersion)?
        let runtime = situation.hostRuntimeVersion ?? situation.embedded.runtimeVersion
        let embeddedVersion = PackageVersion(situation.embedded.version)

        if situation.rolledBack {
            if !situation.candidates.isEmpty {
                messages.append("the update feed rolled back; using the embedded package \(situation.embedded.version)")
            }
        } else {
            for candidate in situation.candidates {
                let name = "update \(candidate.package.version) (\(candidate.id.prefix(12)))"
                if let reason = refusal(
                    candidate, situation: situation, runtime: runtime, embeddedVersion: embeddedVersion)
                {
                    messages.append("\(name) not used: \(reason)")
                    continue
                }
                guard let version = PackageVersion(candidate.package.version) else { continue }
                if let current = best {
                    if current.version < version {
                        messages.append(
                            "update \(current.candidate.package.version) (\(current.candidate.id.prefix(12))) not used: \(candidate.package.version) is newer"
                        )
                        best = (candidate, version)
                    } else {
                        messages.append("\(name) not used: \(current.candidate.package.version) is newer")
                    }
                } else {
                    best = (candidate, version)
                }
            }
        }

        let primary: SourceKind = best == nil ? .embeddedPackage : .downloadedUpdate
        let sources = SourcePolicy.plan(for: SourceSituation(monitor: situation.monitor, primary: .ready(primary)))
        return UpdatePlan(
            choice: best.map { .update(id: $0.candidate.id) } ?? .embedded, order: sources.order,
            messages: messages + sources.warnings)
    }

    /// Why `candidate` may not run, or nil when it may.
    static func refusal(
        _ candidate: UpdateSituation.Candidate, situation: UpdateSituation, runtime: String?,
        embeddedVersion: PackageVersion?
    ) -> String? {
        guard candidate.signature.isTrusted else { return candidate.signature.description }
        if candidate.package.identifier != situation.embedded.identifier {
            return "it is \(candidate.package.identifier), not \(situation.embedded.identifier)"
        }
        if candidate.package.runtimeVersion != runtime {
            return
                "it needs runtime version \(candidate.package.runtimeVersion ?? "(none)"); this host runs \(runtime ?? "(none)")"
        }
        guard let version = PackageVersion(candidate.package.version) else {
            return "its version \(candidate.package.version) cannot be compared"
        }
        guard let embeddedVersion else {
            return "the embedded version \(situation.embedded.version) cannot be compared"
        }
        if !(embeddedVersion < version) {
            return "it is not newer than the embedded package \(situation.embedded.version)"
        }
        if candidate.failed { return "it failed at an earlier launch before the host confirmed it healthy" }
        return nil
    }
}
