import FlowDiagnostics
import FlowPackage
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What `--format json` prints, as Encodable values: one encoder, so escaping, key order and
/// layout are the same for every command (`templates` included). Optional fields are written
/// as `null`, never left out, so a program finds every key whether or not it has a value.
enum JSONReport {
    static func text(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Every report is plain strings, numbers, booleans and arrays of them: encoding cannot fail.
        return String(decoding: try! encoder.encode(value), as: UTF8.self) + "\n"
    }

    /// One diagnostic, its file shown as the text output shows it.
    struct DiagnosticEntry: Encodable {
        var file: String?
        var line: Int?
        var column: Int?
        var severity: Diagnostic.Severity
        var code: String
        var message: String
        var hint: String?

        init(_ diagnostic: Diagnostic, renderer: DiagnosticRenderer) {
            file = diagnostic.file.map(renderer.displayPath)
            line = diagnostic.line
            column = diagnostic.column
            severity = diagnostic.severity
            code = diagnostic.code.code
            message = diagnostic.message
            hint = diagnostic.hint
        }

        enum CodingKeys: CodingKey { case file, line, column, severity, code, message, hint }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(file, forKey: .file)
            try container.encode(line, forKey: .line)
            try container.encode(column, forKey: .column)
            try container.encode(severity, forKey: .severity)
            try container.encode(code, forKey: .code)
            try container.encode(message, forKey: .message)
            try container.encode(hint, forKey: .hint)
        }
    }

    struct Summary: Encodable {
        var errors, warnings, modules, resources: Int

        init(_ summary: DiagnosticSummary) {
            errors = summary.errors
            warnings = summary.warnings
            modules = summary.modules
            resources = summary.resources
        }
    }

    /// `validate --format json`.
    struct Validation: Encodable {
        var diagnostics: [DiagnosticEntry]
        var summary: Summary
    }

    /// `export --format json`: validation's report and the package written, or null.
    struct Export: Encodable {
        struct Package: Encodable {
            var path, identifier, version, digest, sha256: String
            var modules, resources: Int
            var bytes: Int64
        }

        var diagnostics: [DiagnosticEntry]
        var summary: Summary
        var package: Package?

        enum CodingKeys: CodingKey { case diagnostics, summary, package }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(diagnostics, forKey: .diagnostics)
            try container.encode(summary, forKey: .summary)
            try container.encode(package, forKey: .package)
        }
    }

    /// `verify --format json`: what the manifest says when the package is sound, and every problem.
    struct Verification: Encodable {
        struct Problem: Encodable {
            var entry: String?
            var code: String
            var message: String

            enum CodingKeys: CodingKey { case entry, code, message }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(entry, forKey: .entry)
                try container.encode(code, forKey: .code)
                try container.encode(message, forKey: .message)
            }
        }

        var path: String
        var ok: Bool
        var identifier, version, digest: String?
        var problems: [Problem]

        init(_ problems: [PackageProblem], manifest: Manifest?, path: String) {
            self.path = path
            ok = problems.isEmpty
            identifier = manifest?.identifier.rawValue
            version = manifest?.version
            digest = manifest?.digest
            self.problems = problems.map { Problem(entry: $0.entry, code: $0.code.code, message: $0.message) }
        }

        enum CodingKeys: CodingKey { case path, ok, identifier, version, digest, problems }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .path)
            try container.encode(ok, forKey: .ok)
            try container.encode(identifier, forKey: .identifier)
            try container.encode(version, forKey: .version)
            try container.encode(digest, forKey: .digest)
            try container.encode(problems, forKey: .problems)
        }
    }

    /// `inspect --format json`: the manifest's fields, counts and sizes, and with `--list` every entry.
    struct Inspection: Encodable {
        struct Count: Encodable {
            var count: Int
            var bytes: Int64
        }

        struct Entry: Encodable {
            var path: String
            var size: Int64
            var sha256: String
        }

        var path: String
        var identifier, name, version: String
        var startModule: String?
        var luaVersion, generator: String
        var formatVersion: Int
        var modules, resources: Count
        var scripts: Count?
        var digest, sha256: String
        var runtimeVersion: String?
        /// The signer's key id, or nil when unsigned (`{"valid": false}` when malformed).
        var signer: String?
        var entries: [Entry]?

        /// How a signature shows: its algorithm and the signer's key id.
        struct Signature: Encodable {
            var algorithm: String?
            var keyID: String?
            var valid: Bool?
        }

        init(_ manifest: Manifest, path: String, sha256: String, list: Bool, signer: String? = nil) {
            func count(_ sizes: [Int64]) -> Count { Count(count: sizes.count, bytes: sizes.reduce(0, +)) }
            self.path = path
            identifier = manifest.identifier.rawValue
            name = manifest.name
            version = manifest.version
            startModule = manifest.startModule?.rawValue
            luaVersion = manifest.luaVersion
            generator = manifest.generator
            formatVersion = manifest.formatVersion
            modules = count(manifest.modules.map(\.size))
            resources = count(manifest.resources.map(\.size))
            // Only a package with scripts has the key, as before scripts existed.
            scripts = manifest.scripts.isEmpty ? nil : count(manifest.scripts.map(\.size))
            digest = manifest.digest
            self.sha256 = sha256
            runtimeVersion = manifest.runtimeVersion
            self.signer = signer
            entries = list ? manifest.entries.map { Entry(path: $0.path, size: $0.size, sha256: $0.sha256) } : nil
        }

        enum CodingKeys: CodingKey {
            case path, identifier, name, version, startModule, luaVersion, generator, formatVersion
            case modules, resources, scripts, digest, runtimeVersion, signature, sha256, entries
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .path)
            try container.encode(identifier, forKey: .identifier)
            try container.encode(name, forKey: .name)
            try container.encode(version, forKey: .version)
            try container.encode(startModule, forKey: .startModule)
            try container.encode(luaVersion, forKey: .luaVersion)
            try container.encode(generator, forKey: .generator)
            try container.encode(formatVersion, forKey: .formatVersion)
            try container.encode(modules, forKey: .modules)
            try container.encode(resources, forKey: .resources)
            try container.encodeIfPresent(scripts, forKey: .scripts)
            try container.encode(digest, forKey: .digest)
            try container.encode(runtimeVersion, forKey: .runtimeVersion)
            try container.encode(
                signer.map {
                    $0 == "malformed"
                        ? Signature(valid: false) : Signature(algorithm: "ed25519", keyID: $0)
                }, forKey: .signature)
            try container.encode(sha256, forKey: .sha256)
            try container.encodeIfPresent(entries, forKey: .entries)
        }
    }
}
