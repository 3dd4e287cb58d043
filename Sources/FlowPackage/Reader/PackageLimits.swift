/// The bounds a package must stay within. The reader refuses anything past them before it
/// spends the memory or time, and the writer refuses to produce a package past them, so
/// every package flowpkg writes is one it can read.
public struct PackageLimits: Sendable, Equatable {
    /// The largest `manifest.json`, in bytes.
    public var maxManifestBytes: Int64
    /// How deeply the manifest's JSON may nest (the format itself needs 3 levels).
    public var maxManifestDepth: Int
    /// The most entries an archive may hold, the manifest included.
    public var maxEntries: Int
    /// The largest module, in bytes.
    public var maxModuleBytes: Int64
    /// The most bytes all modules together may hold (`allModules()` keeps them all in memory).
    public var maxTotalModuleBytes: Int64
    /// The largest resource, in bytes (`resourceData` returns it in memory).
    public var maxResourceBytes: Int64

    public init(
        maxManifestBytes: Int64 = 16 << 20, maxManifestDepth: Int = 16, maxEntries: Int = 65_536,
        maxModuleBytes: Int64 = 16 << 20, maxTotalModuleBytes: Int64 = 512 << 20,
        maxResourceBytes: Int64 = 1 << 30
    ) {
        self.maxManifestBytes = maxManifestBytes
        self.maxManifestDepth = maxManifestDepth
        self.maxEntries = maxEntries
        self.maxModuleBytes = maxModuleBytes
        self.maxTotalModuleBytes = maxTotalModuleBytes
        self.maxResourceBytes = maxResourceBytes
    }

    /// Manifest ≤ 16 MiB and 16 levels deep, ≤ 65,536 entries, modules ≤ 16 MiB each and
    /// 512 MiB together, resources ≤ 1 GiB each.
    public static let `default` = PackageLimits()
}
