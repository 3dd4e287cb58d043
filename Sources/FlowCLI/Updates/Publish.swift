import ArgumentParser
import FlowPackage
import FlowUpdates
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport

extension Flowpkg {
    /// `flowpkg publish`: adds a package (or a rollback) to a static update feed.
    struct Publish: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "publish",
            abstract: "Publish a package to a static update feed (a folder any web server serves).",
            discussion: """
                Copies PKG into DIR/packages/, named by its SHA-256, then points the channel's \
                entry in DIR/index.json at it. Both are written to a temporary file and renamed, \
                package first, so a client never reads a half-written feed or an index naming a \
                missing package. Older packages stay, for clients mid-download. With --rollback, \
                the channel's entry tells clients to go back to their embedded package (give PKG \
                or --identifier to say which app). Upload DIR as it is to any static host.

                The index is signed with --sign KEY (the key clients trust), its version goes up \
                by one, and it expires after --expires-in days: clients refuse an unsigned, \
                expired or older index, so publish again (the same package will do) before it \
                expires. A package of another identifier than the channel's is refused without \
                --force; one signed by another key than the channel's current package is a warning.

                EXAMPLES:
                  flowpkg publish App-1.1.0.luapkg --to feed --sign release.key
                  flowpkg publish App-1.2.0-beta.luapkg --to feed --channel beta --sign release.key
                  flowpkg publish --rollback --identifier com.example.app --to feed --sign release.key
                """
        )

        @Argument(
            help: "The package to publish (signed with export --sign).", completion: .file(extensions: ["luapkg"]))
        var package: String?

        @Option(help: ArgumentHelp("The feed folder (created if missing).", valueName: "dir"), completion: .directory)
        var to: String

        @Option(help: "The channel clients follow.")
        var channel: String = UpdateFeed.defaultChannel

        @Flag(help: "Publish a rollback: clients return to their embedded package.")
        var rollback = false

        @Option(help: "With --rollback and no PKG: the identifier of the app to roll back.")
        var identifier: String?

        @Option(
            help: ArgumentHelp("The private key (flowpkg keygen) that signs the index.", valueName: "key-file"),
            completion: .file(extensions: ["key"]))
        var sign: String

        @Option(
            help: ArgumentHelp("Days until clients refuse the index unless it is published again.", valueName: "days"))
        var expiresIn: Double = 30

        @Flag(
            help:
                "Publish what clients would refuse or not expect: a package of another identifier than the channel's, an unsigned one, or one signed by another key than --sign or the channel's."
        )
        var force = false

        init() {}

        func validate() throws {
            if let problem = FeedPublisher.channelProblem(channel) {
                throw ValidationError("--channel '\(channel)': \(problem)")
            }
            if let identifier, let problem = PackageIdentifier.problem(in: identifier) {
                throw ValidationError("--identifier '\(identifier)' is not valid: \(problem)")
            }
            if !rollback, package == nil { throw ValidationError("give the package to publish, or --rollback") }
            if !rollback, identifier != nil { throw ValidationError("--identifier goes with --rollback") }
            if !(expiresIn > 0) { throw ValidationError("--expires-in takes a number of days above 0") }
            if rollback, package == nil, identifier == nil {
                throw ValidationError("--rollback needs PKG or --identifier ID to say which app rolls back")
            }
        }

        func run() throws {
            let folder = URL(fileURLWithPath: to)
            guard let key = try SigningOptions.loadKey(sign) else { return }
            let signing = FeedPublisher.IndexSigning(key: key, validFor: expiresIn * 86_400)
            if !rollback, !force, let package,
                let problem = FeedPublisher.trustProblem(
                    package: URL(fileURLWithPath: package), in: folder, channel: channel, signing: signing)
            {
                StandardStream.error.write(
                    "error: nothing was published: \(problem)\nhelp: pass --force to publish it all the same\n")
                throw ExitCode.failure
            }
            let outcome: FeedPublisher.Outcome
            do {
                if rollback {
                    let id: PackageIdentifier
                    if let identifier {
                        id = try PackageIdentifier(identifier)
                    } else {
                        id = try PackageReader.readManifest(at: URL(fileURLWithPath: package!)).identifier
                    }
                    outcome = try FeedPublisher.rollback(
                        identifier: id, in: folder, channel: channel, signing: signing)
                } else {
                    outcome = try FeedPublisher.publish(
                        package: URL(fileURLWithPath: package!), to: folder, channel: channel, signing: signing,
                        force: force)
                }
            } catch {
                StandardStream.error.write("error: \(error)\n")
                throw ExitCode.failure
            }
            for note in outcome.notes {
                StandardStream.error.write("\(note)\n")
            }
            let entry = outcome.entry
            switch entry.kind {
            case .rollback:
                print(
                    "published a rollback for \(entry.identifier) on channel \(outcome.channel) in \(outcome.index.path)"
                )
            case .package:
                print(
                    "published \(entry.identifier) \(entry.version ?? "") on channel \(outcome.channel): "
                        + "\(to)/\(entry.path ?? "") (sha256:\(entry.sha256 ?? ""), \(entry.size ?? 0) bytes)"
                        + (entry.signed == true ? "" : ", unsigned"))
            }
        }
    }
}
