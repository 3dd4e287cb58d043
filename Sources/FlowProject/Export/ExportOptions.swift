import FlowDependencies
import FlowDiagnostics
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

/// How `flowpkg export` packages a project.
public struct ExportOptions: Sendable {
    /// Where to write; relative paths are resolved against `workingDirectory`. Nil writes
    /// `<name>-<version>.luapkg` in `workingDirectory`.
    public var output: String?
    /// The folder relative paths and the default output are resolved against.
    public var workingDirectory: URL
    /// Replaces flowpkg.json's identifier (checked by the same rules).
    public var identifier: String?
    /// Replaces flowpkg.json's version (CI sets it from a tag).
    public var version: String?
    /// Warnings block the export as errors do.
    public var strict: Bool
    /// Replace the output even when it is not a package, or lies among the project's own
    /// files (see `OutputRule`); a folder is never replaced.
    public var force: Bool
    /// The environment `SOURCE_DATE_EPOCH` is read from.
    public var environment: [String: String]
    /// Called from any thread with bytes done and the total while the package is written.
    public var progress: (@Sendable (PackageWriteProgress) -> Void)?
    /// Set it (from a signal handler) to stop the export; the output is then left untouched.
    public var cancellation: PackageCancellation?
    /// Signs the package (`manifest.sig`); nil writes it unsigned.
    public var signingKey: PackageSigningKey? = nil
    /// Replaces flowpkg.json's `runtimeVersion`.
    public var runtimeVersion: String? = nil
    /// Linked files may lie outside the project's repository (`--allow-outside-links`); by
    /// default whether `environment` sets `FLOWPKG_ALLOW_OUTSIDE_LINKS=1`.
    public var allowsOutsideLinks: Bool
    /// `--locked`, `--offline` and `--rocks-server`: how dependencies are resolved and read.
    public var dependencies = DependencyOptions()

    public init(
        output: String? = nil,
        workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        identifier: String? = nil, version: String? = nil, strict: Bool = false, force: Bool = false,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        progress: (@Sendable (PackageWriteProgress) -> Void)? = nil, cancellation: PackageCancellation? = nil
    ) {
        self.output = output
        self.workingDirectory = workingDirectory
        self.identifier = identifier
        self.version = version
        self.strict = strict
        self.force = force
        self.environment = environment
        self.allowsOutsideLinks = OutsideLinks.allowed(by: environment)
        self.progress = progress
        self.cancellation = cancellation
    }
}

/// What an export did: the diagnostics (validation's and export's own FP5xx), and the
/// package when one was written.
public struct ExportResult: Sendable {
    /// A package written to disk.
    public struct Package: Sendable, Equatable {
        public var url: URL
        public var manifest: Manifest
        /// The package file's size.
        public var bytes: Int64
        /// Lowercase hex SHA-256 of the package file (what `sha256sum` prints).
        public var sha256: String
    }

    /// Sorted as validation sorts them; export's own problems come last.
    public var diagnostics: [Diagnostic]
    public var moduleCount: Int
    public var resourceCount: Int
    /// Nil when the export stopped: the output path was then not touched.
    public var package: Package?
    /// True when the user cancelled (Ctrl-C).
    public var wasCancelled: Bool

    public var errorCount: Int { diagnostics.count { $0.severity == .error } }
    public var warningCount: Int { diagnostics.count { $0.severity == .warning } }
    public var hasErrors: Bool { errorCount > 0 }
}
