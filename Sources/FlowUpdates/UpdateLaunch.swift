import FlowLoader
import FlowPackage
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Signed updates for a launch (FlowRuntime's `PackageLaunch.updates`): runs the newest
/// trustworthy update downloaded before (or the embedded package), falls back to the embedded
/// package in the same launch when the update's start module throws, and checks the feed for
/// the next launch. Every line it logs starts with `update: `.
public final class UpdateLaunch: LaunchUpdates, Sendable {
    public let client: UpdateClient
    /// Whether the feed is checked (and a new update downloaded and run) before the launch,
    /// rather than in the background for the next one.
    public let checksFirst: Bool
    private let background = Locked<BackgroundCheck?>(nil)

    /// - Parameters:
    ///   - client: the update client over the host's embedded package.
    ///   - checkingFirst: check the feed before launching and run what it brings now
    ///     (`flowpkg run --apply-now`); by default the check runs in the background while the
    ///     program runs, and what it downloads runs from the next launch.
    public init(client: UpdateClient, checkingFirst: Bool = false) {
        self.client = client
        checksFirst = checkingFirst
    }

    /// Updates from `configuration`'s feed over `embedded`, the package the host ships with.
    public convenience init(
        configuration: UpdateClient.Configuration, embedded: EmbeddedPackageSource, checkingFirst: Bool = false
    ) throws(UpdateError) {
        self.init(
            client: try UpdateClient(configuration: configuration, embedded: embedded), checkingFirst: checkingFirst)
    }

    public func chooseSource(embedded: EmbeddedPackageSource, log: (String) -> Void) -> (any PackageSource)? {
        if checksFirst { log("update: \(client.checkForUpdate())") }
        let launch = client.prepareLaunch()
        for message in launch.messages { log("update: \(message)") }
        if launch.plan.choice == .embedded {
            log("update: running the embedded package \(client.embedded.manifest.version)")
        }
        if !checksFirst { background.withLock { $0 = client.checkInBackground() } }
        return launch.source as? UpdatePackageSource
    }

    public func startModuleFailed(_ error: any Error, log: (String) -> Void) -> Bool {
        let firstLine = "\(error)".split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
        guard let launch = client.fallBackToEmbedded(reason: firstLine) else { return false }
        for message in launch.messages { log("update: \(message)") }
        return true
    }

    public func startModuleSucceeded() { client.markHealthy() }

    /// Waits (up to the feed check's deadline) for the background check, so what it
    /// downloads is there at the next launch; `log` gets what it found.
    public func finish(log: (String) -> Void) {
        guard let background = background.withLock({ $0 }) else { return }
        guard let outcome = background.wait(timeout: client.configuration.deadline + 5) else {
            log("update: the feed check did not finish; it is tried again at the next start")
            return
        }
        if case .downloaded = outcome {
            log("update: \(outcome); it runs from the next start")
        } else {
            log("update: \(outcome)")
        }
    }
}
