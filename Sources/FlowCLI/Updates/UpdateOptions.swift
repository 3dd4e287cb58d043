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

    /// With `--updates`: the updates `flowpkg run`'s launch takes over `target`, which must be
    /// a package (checking the feed first with `--apply-now`). Nil without `--updates`.
    func launch(over target: RunTarget) throws -> UpdateLaunch? {
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
        return UpdateLaunch(client: client, checkingFirst: applyNow)
    }
}

/// Why `--updates` cannot start (a usage problem, not a failed update: those only log).
struct UpdateRunError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
