import ArgumentParser
import FlowProject
import FlowLoader
import FlowPackage
import FlowUpdates
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

/// `flowpkg run`'s update options: without `--updates` nothing update-related is read,
/// created or started.
struct UpdateOptions: ParsableArguments {
    @Option(
        name: .customLong("updates"),
        help: ArgumentHelp(
            "An update feed (made by flowpkg publish): http://, file:// or a folder\(UpdateOptions.httpsHelp).",
            valueName: "url"))
    var feed: String?

    @Option(
        help: ArgumentHelp(
            "A public key (flowpkg keygen) whose signed updates may run; repeat for several.",
            valueName: "pub-file"), completion: .file(extensions: ["pub"]))
    var trustedKey: [String] = []

    @Flag(
        help:
            "Check the feed, download and verify before starting, and run a new update now (default: run what was downloaded before; check in the background for the next start)."
    )
    var applyNow = false

    @Option(help: "The feed channel to follow.")
    var channel: String = UpdateFeed.defaultChannel

    @Option(help: "The host's runtime version (default: the package's runtimeVersion).")
    var runtimeVersion: String?

    @Option(
        help: ArgumentHelp(
            "Where downloaded updates are kept (default: $XDG_CACHE_HOME/flowpkg/updates or ~/.cache/flowpkg/updates).",
            valueName: "dir"), completion: .directory)
    var updateStore: String?

    @Option(
        help: ArgumentHelp(
            "Seconds the whole feed check (index and download) may take; then the package already here runs (default: 10 with --apply-now, which the launch waits for; 120 in the background).",
            valueName: "seconds"))
    var updateDeadline: Double?

    /// The deadline in effect: a check the launch waits for is short by default.
    var effectiveDeadline: Double {
        updateDeadline ?? (applyNow ? UpdateClient.blockingDeadline : 120)
    }

    @Option(help: ArgumentHelp("The largest update package to download, in bytes.", valueName: "bytes"))
    var maxUpdateBytes: Int64 = 256 << 20

    static var httpsHelp: String {
        #if canImport(Darwin)
            return " or https://"
        #else
            return "; https:// only on Apple platforms"
        #endif
    }

    func validate() throws {
        guard let feed else {
            if !trustedKey.isEmpty || applyNow || updateStore != nil || runtimeVersion != nil
                || channel != UpdateFeed.defaultChannel || updateDeadline != nil || maxUpdateBytes != 256 << 20
            {
                throw ValidationError(
                    "--trusted-key, --apply-now, --channel, --runtime-version, --update-store, --update-deadline and --max-update-bytes go with --updates URL"
                )
            }
            return
        }
        if let updateDeadline, !(updateDeadline > 0) {
            throw ValidationError("--update-deadline takes a number of seconds above 0")
        }
        if maxUpdateBytes <= 0 { throw ValidationError("--max-update-bytes takes a number of bytes above 0") }
        if trustedKey.isEmpty {
            throw ValidationError("--updates needs --trusted-key PUB: only packages signed by a trusted key run")
        }
        if let problem = FeedPublisher.channelProblem(channel) {
            throw ValidationError("--channel '\(channel)': \(problem)")
        }
        let scheme = URL(string: feed)?.scheme?.lowercased()
        switch scheme {
        case "http", "file", nil: break
        case "https":
            #if !canImport(Darwin)
                throw ValidationError(
                    "--updates: https:// feeds are not supported on Linux (flowpkg does not link libcurl, "
                        + "to start fast); use http:// on a network you trust, file:// or a folder: every update is still "
                        + "checked against the trusted key")
            #else
                break
            #endif
        default:
            throw ValidationError("--updates takes an http:// or file:// URL or a folder, not '\(feed)'")
        }
    }

    /// The feed as a URL: a bare path is a local folder.
    var feedURL: URL? {
        guard let feed else { return nil }
        if let url = URL(string: feed), url.scheme != nil { return url }
        return URL(fileURLWithPath: feed, isDirectory: true)
    }

    var storeFolder: URL {
        if let updateStore { return URL(fileURLWithPath: updateStore, isDirectory: true) }
        let environment = ProcessInfo.processInfo.environment
        let cache =
            environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? FileManager.default.temporaryDirectory.path) + "/.cache")
        return URL(fileURLWithPath: cache).appendingPathComponent("flowpkg/updates", isDirectory: true)
    }

    /// With `--updates`: picks the package this run uses (checking the feed first with
    /// `--apply-now`) and points `target` at it. Nil without `--updates`.
    func start(_ target: inout RunTarget, log: (String) -> Void) throws -> UpdateRun? {
        guard let feedURL else { return nil }
        guard let embedded = target.loader.sources.last as? EmbeddedPackageSource else {
            throw UpdateRunError("--updates runs a .luapkg (the embedded package), not a project folder")
        }
        var keys: [PackagePublicKey] = []
        for path in trustedKey {
            do { keys.append(try PackagePublicKey(contentsOf: URL(fileURLWithPath: path))) } catch {
                throw UpdateRunError("\(error)")
            }
        }
        let client: UpdateClient
        do {
            client = try UpdateClient(
                configuration: .init(
                    feed: feedURL, channel: channel, trustedKeys: keys,
                    runtimeVersion: runtimeVersion, store: storeFolder, timeout: min(30, effectiveDeadline),
                    deadline: effectiveDeadline, maxPackageBytes: maxUpdateBytes),
                embedded: embedded)
        } catch {
            throw UpdateRunError("\(error)")
        }
        // A file size limit (ulimit -f) makes a too-large write fail with EFBIG, reported and
        // cleaned up like a full disk, instead of killing the process.
        signal(SIGXFSZ, SIG_IGN)
        let embeddedTarget = target
        if applyNow { log("update: \(client.checkForUpdate(deadline: effectiveDeadline))") }
        let launch = client.prepareLaunch()
        for message in launch.messages { log("update: \(message)") }
        if launch.plan.choice == .embedded {
            log("update: running the embedded package \(embedded.manifest.version)")
        }
        let background = applyNow ? nil : client.checkInBackground()
        if let update = launch.source as? UpdatePackageSource {
            do {
                target.loader = try Loader(identifier: embedded.identifier, sources: [update])
            } catch {
                throw UpdateRunError("\(error)")
            }
            if let start = update.manifest.startModule { target.startModule = start }
            target.externalModules = update.manifest.externalModules
        }
        return UpdateRun(client: client, background: background, embeddedTarget: embeddedTarget)
    }
}

/// Why `--updates` cannot start (a usage problem, not a failed update: those only log).
struct UpdateRunError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// One `flowpkg run` with updates: reports the start module's outcome for launch safety and,
/// at the end, what the background check found.
struct UpdateRun {
    let client: UpdateClient
    let background: BackgroundCheck?
    /// What runs when the update's start module fails: the embedded package.
    let embeddedTarget: RunTarget

    /// The update's start module threw before the launch was confirmed healthy: the update is
    /// marked failed, and the embedded package's target is returned to run in this same
    /// launch. Nil when the embedded package was what failed.
    func fallBack(after error: any Error, log: (String) -> Void) -> RunTarget? {
        let firstLine = "\(error)".split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
        guard let launch = client.fallBackToEmbedded(reason: firstLine) else { return nil }
        for message in launch.messages { log("update: \(message)") }
        return embeddedTarget
    }

    /// The start module returned without error: the host confirms the launch healthy.
    func succeeded() { client.markHealthy() }

    /// The start module failed: the update (if one ran) is marked failed.
    func failed() { client.markFailed() }

    /// Waits for the background check, so what it downloaded is there at the next start.
    func finish(log: (String) -> Void) {
        guard let background else { return }
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
