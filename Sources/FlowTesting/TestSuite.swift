import FlowLoader
import FlowPackage

/// What a run needs from the project: its folder, its spec files, and the sources a spec's
/// `require` and `getResource` reach (what `flowpkg run` resolves, dev dependencies included).
public struct TestSuite: Sendable {
    /// The project folder, absolute: spec files, `lpath` and `./?.lua` are found from here.
    public var root: String
    /// The spec files, relative to `root`, in the order they run.
    public var files: [String]
    public var identifier: PackageIdentifier
    /// The sources each file's context loads from, highest first.
    public var sources: [any PackageSource]
    /// The C modules the project declares (`externalModules`).
    public var externalModules: [String]

    public init(
        root: String, files: [String], identifier: PackageIdentifier, sources: [any PackageSource],
        externalModules: [String] = []
    ) {
        self.root = root
        self.files = files
        self.identifier = identifier
        self.sources = sources
        self.externalModules = externalModules
    }
}
