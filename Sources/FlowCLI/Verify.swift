import ArgumentParser
import FlowPackage
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

extension Flowpkg {
    /// `flowpkg verify`: every rule the loader enforces, and every entry's bytes.
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Check a .luapkg completely: structure, manifest, every entry's size and SHA-256.",
            discussion: """
                Checks that the zip opens, the manifest comes first, parses and has every \
                field, every listed entry is there once with the right size and SHA-256, no \
                entry is unlisted or unsafe (absolute, '..', symlink, not a regular file), the \
                start module exists and the digest matches. Every entry is read as the loader \
                reads it (its local header checked against the central directory), so a package \
                verify passes is one the loader serves whole; an entry that would inflate more \
                than the limits allow (a zip bomb) is refused unread. Prints each problem with \
                the entry it concerns and exits 1 if there is any.
                """
        )

        @Argument(help: "The package to verify.", completion: .file(extensions: ["luapkg"]))
        var package: String

        @Option(help: "Also require this package identifier.")
        var identifier: String?

        @Option(help: "Output format: text or json.")
        var format: PackageReportFormat = .text

        @Option(
            help: ArgumentHelp(
                "Also require a signature by this public key (made by flowpkg keygen).", valueName: "pub-file"),
            completion: .file(extensions: ["pub"]))
        var trustedKey: String?

        init() {}

        func validate() throws {
            if let identifier, let problem = PackageIdentifier.problem(in: identifier) {
                throw ValidationError("--identifier '\(identifier)' is not valid: \(problem)")
            }
        }

        func run() throws {
            let url = URL(fileURLWithPath: package)
            let expected = try identifier.map { try PackageIdentifier($0) }
            let trusted = try SigningOptions.loadPublicKey(trustedKey)
            var problems = PackageReader.verify(at: url, expectedIdentifier: expected)
            if let trusted, problems.isEmpty { problems += SigningOptions.signatureProblems(url, trusted: trusted) }
            let manifest = problems.isEmpty ? try? PackageReader.readManifest(at: url) : nil
            print(
                format == .json
                    ? Self.json(problems, manifest: manifest, path: package)
                    : Self.text(problems, manifest: manifest, path: package), terminator: "")
            if let trusted, problems.isEmpty, format != .json {
                print("\(package): \(PackageSignature.entryName): signed by trusted key \(trusted.keyID)")
            }
            if !problems.isEmpty { throw ExitCode.failure }
        }

        /// One line per problem, `PKG: entry: message`, or one line saying all is well.
        static func text(_ problems: [PackageProblem], manifest: Manifest?, path: String) -> String {
            // Entry names and manifest strings come from the package: escaped (`TerminalText`).
            guard problems.isEmpty else {
                return TerminalText.lines(problems, shownPath: path) + "\n"
                    + "\(TerminalText.escaped(path)): \(problems.count) problem\(problems.count == 1 ? "" : "s")\n"
            }
            guard let manifest else { return "\(TerminalText.escaped(path)): ok\n" }
            return
                "\(TerminalText.escaped(path)): ok: \(manifest.identifier) \(TerminalText.escaped(manifest.version)), "
                + "\(manifest.modules.count) module\(manifest.modules.count == 1 ? "" : "s"), "
                + "\(manifest.resources.count) resource\(manifest.resources.count == 1 ? "" : "s"), "
                + (manifest.scripts.isEmpty
                    ? "" : "\(manifest.scripts.count) script\(manifest.scripts.count == 1 ? "" : "s"), ")
                + "digest sha256:\(TerminalText.escaped(manifest.digest))\n"
        }

        static func json(_ problems: [PackageProblem], manifest: Manifest?, path: String) -> String {
            JSONReport.text(JSONReport.Verification(problems, manifest: manifest, path: path))
        }
    }
}
