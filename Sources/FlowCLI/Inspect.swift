import ArgumentParser
import FlowPackage
import Foundation

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
                let text = "\(error)".replacingOccurrences(of: url.path, with: package)
                FileHandle.standardError.write(Data("error: \(text)\n".utf8))
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

        static func text(
            _ manifest: Manifest, path: String, sha256: String, list: Bool, signer: String? = nil
        ) -> String {
            let moduleBytes = manifest.modules.reduce(Int64(0)) { $0 + $1.size }
            let resourceBytes = manifest.resources.reduce(Int64(0)) { $0 + $1.size }
            var out = "\(path)\n"
            out += "  identifier:   \(manifest.identifier)\n"
            out += "  name:         \(manifest.name)\n"
            out += "  version:      \(manifest.version)\n"
            out += "  start module: \(manifest.startModule?.rawValue ?? "(none)")\n"
            out += "  runtime:      \(manifest.runtimeVersion ?? "(none)")\n"
            out +=
                "  signature:    "
                + (signer.map { $0 == "malformed" ? "malformed" : "ed25519, key id \($0)" } ?? "(unsigned)") + "\n"
            out += "  modules:      \(manifest.modules.count) (\(moduleBytes) bytes)\n"
            out += "  resources:    \(manifest.resources.count) (\(resourceBytes) bytes)\n"
            out += "  lua:          \(manifest.luaVersion)\n"
            out += "  generator:    \(manifest.generator) (format \(manifest.formatVersion))\n"
            out += "  digest:       sha256:\(manifest.digest)\n"
            out += "  file sha256:  \(sha256)\n"
            if list {
                let entries = manifest.entries
                let width = entries.map { String($0.size).count }.max() ?? 1
                out += "entries:\n"
                for entry in entries {
                    let size = String(entry.size)
                    out +=
                        "  " + String(repeating: " ", count: width - size.count) + size + "  "
                        + entry.sha256.prefix(12) + "  " + entry.path + "\n"
                }
            }
            return out
        }

        static func json(
            _ manifest: Manifest, path: String, sha256: String, list: Bool, signer: String? = nil
        ) -> String {
            let string = JSONText.quoted
            let moduleBytes = manifest.modules.reduce(Int64(0)) { $0 + $1.size }
            let resourceBytes = manifest.resources.reduce(Int64(0)) { $0 + $1.size }
            var out = "{\n"
            out += "  \"path\": \(string(path)),\n"
            for field in [
                Manifest.JSONField.identifier, .name, .version, .startModule, .luaVersion, .generator, .formatVersion,
            ] {
                out += "  \(manifest.jsonMember(field)),\n"
            }
            out += "  \"modules\": {\"count\": \(manifest.modules.count), \"bytes\": \(moduleBytes)},\n"
            out += "  \"resources\": {\"count\": \(manifest.resources.count), \"bytes\": \(resourceBytes)},\n"
            out += "  \(manifest.jsonMember(.digest)),\n"
            out += "  \"runtimeVersion\": \(manifest.runtimeVersion.map(string) ?? "null"),\n"
            out +=
                "  \"signature\": "
                + (signer.map {
                    $0 == "malformed" ? "{\"valid\": false}" : "{\"algorithm\": \"ed25519\", \"keyID\": \(string($0))}"
                }
                    ?? "null") + ",\n"
            out += "  \"sha256\": \(string(sha256))"
            if list {
                let entries = manifest.entries.map { entry in
                    "    {\"path\": \(string(entry.path)), \"size\": \(entry.size), \"sha256\": \(string(entry.sha256))}"
                }
                out +=
                    ",\n  \"entries\": [" + (entries.isEmpty ? "]" : "\n" + entries.joined(separator: ",\n") + "\n  ]")
            }
            return out + "\n}\n"
        }
    }
}
