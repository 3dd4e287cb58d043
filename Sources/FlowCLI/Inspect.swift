import ArgumentParser
import FlowPackage
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport

/// How `inspect` and `verify` print: for people or for programs.
enum PackageReportFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    case text, json
}

extension Flowpkg {
    /// `flowpkg inspect`: what a package holds, from its manifest.
    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "inspect",
            abstract: "Show a .luapkg's identifier, version, start module, contents and digest.",
            discussion: """
                Opens the package with the same checks the loader applies (manifest, entry \
                list, digest); use `flowpkg verify` to also check every entry's bytes. The \
                digest identifies the package's content (identifier, name, version, start \
                module, every entry); the file's SHA-256 is the file's own, as sha256sum prints it.
                """
        )

        @Argument(help: "The package to inspect.", completion: .file(extensions: ["luapkg"]))
        var package: String

        @Flag(help: "List every entry with its size and SHA-256.")
        var list = false

        @Option(help: "Output format: text or json.")
        var format: PackageReportFormat = .text

        init() {}

        func run() throws {
            let url = URL(fileURLWithPath: package)
            let reader: PackageReader
            do {
                reader = try PackageReader(contentsOf: url)
            } catch {
                let text = TerminalText.packageError(error, path: url.path, shownPath: package)
                StandardStream.error.write("error: \(text)\n")
                throw ExitCode.failure
            }
            let sha256 = (try? PackageFile.sha256(at: url)) ?? ""
            let signer = Self.signer(reader)
            print(
                format == .json
                    ? Self.json(reader.manifest, path: package, sha256: sha256, list: list, signer: signer)
                    : Self.text(reader.manifest, path: package, sha256: sha256, list: list, signer: signer),
                terminator: "")
        }

        /// The signature as a package shows it (no key to check it against here): the signer's
        /// key id, "malformed", or nil when unsigned.
        static func signer(_ reader: PackageReader) -> String? {
            switch reader.signatureStatus(trustedKeys: []) {
            case .untrustedKey(let id), .trusted(let id), .invalid(let id): return id
            case .malformed: return "malformed"
            case .unsigned: return nil
            }
        }

        /// Every string from the package is escaped (`TerminalText`): a manifest's name or an
        /// entry's path must not drive the terminal.
        static func text(
            _ manifest: Manifest, path: String, sha256: String, list: Bool, signer: String? = nil
        ) -> String {
            let shown = TerminalText.escaped
            let moduleBytes = manifest.modules.reduce(Int64(0)) { $0 + $1.size }
            let resourceBytes = manifest.resources.reduce(Int64(0)) { $0 + $1.size }
            var out = "\(shown(path))\n"
            out += "  identifier:   \(shown(manifest.identifier.rawValue))\n"
            out += "  name:         \(shown(manifest.name))\n"
            out += "  version:      \(shown(manifest.version))\n"
            out += "  start module: \(manifest.startModule.map { shown($0.rawValue) } ?? "(none)")\n"
            out += "  runtime:      \(manifest.runtimeVersion.map(shown) ?? "(none)")\n"
            out +=
                "  signature:    "
                + (signer.map { $0 == "malformed" ? "malformed" : "ed25519, key id \(shown($0))" } ?? "(unsigned)")
                + "\n"
            out += "  modules:      \(manifest.modules.count) (\(moduleBytes) bytes)\n"
            out += "  resources:    \(manifest.resources.count) (\(resourceBytes) bytes)\n"
            if !manifest.scripts.isEmpty {
                let scriptBytes = manifest.scripts.reduce(Int64(0)) { $0 + $1.size }
                out += "  scripts:      \(manifest.scripts.count) (\(scriptBytes) bytes)\n"
            }
            out += "  lua:          \(shown(manifest.luaVersion))\n"
            out += "  generator:    \(shown(manifest.generator)) (format \(manifest.formatVersion))\n"
            out += "  digest:       sha256:\(shown(manifest.digest))\n"
            out += "  file sha256:  \(sha256)\n"
            if list {
                let entries = manifest.entries
                let width = entries.map { String($0.size).count }.max() ?? 1
                out += "entries:\n"
                for entry in entries {
                    let size = String(entry.size)
                    out +=
                        "  " + String(repeating: " ", count: width - size.count) + size + "  "
                        + shown(String(entry.sha256.prefix(12))) + "  " + shown(entry.path) + "\n"
                }
            }
            return out
        }

        static func json(
            _ manifest: Manifest, path: String, sha256: String, list: Bool, signer: String? = nil
        ) -> String {
            JSONReport.text(JSONReport.Inspection(manifest, path: path, sha256: sha256, list: list, signer: signer))
        }
    }
}
