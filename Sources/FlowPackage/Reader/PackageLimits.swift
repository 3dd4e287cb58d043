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
    /// How many times its packed size an entry may declare, once it declares more than
    /// `expansionAllowance` bytes: deflate packs ordinary text and code 3 to 20 times, and a
    /// run of zeros about 1,000 times (a zip bomb). The writer stores any entry that would
    /// deflate further, so every package it writes stays within this.
    public var maxExpansionRatio: Int64
    /// The size up to which an entry may expand without bound (a small file of one repeated
    /// byte costs little).
    public var expansionAllowance: Int64

    public init(
        maxManifestBytes: Int64 = 16 << 20, maxManifestDepth: Int = 16, maxEntries: Int = 65_536,
        maxModuleBytes: Int64 = 16 << 20, maxTotalModuleBytes: Int64 = 512 << 20,
        maxResourceBytes: Int64 = 1 << 30, maxExpansionRatio: Int64 = 100, expansionAllowance: Int64 = 1 << 20
    ) {
        self.maxManifestBytes = maxManifestBytes
        self.maxManifestDepth = maxManifestDepth
        self.maxEntries = maxEntries
        self.maxModuleBytes = maxModuleBytes
        self.maxTotalModuleBytes = maxTotalModuleBytes
        self.maxResourceBytes = maxResourceBytes
        self.maxExpansionRatio = max(1, maxExpansionRatio)
        self.expansionAllowance = expansionAllowance
    }

    /// Manifest ≤ 16 MiB and 16 levels deep, ≤ 65,536 entries, modules ≤ 16 MiB each and
    /// 512 MiB together, resources ≤ 1 GiB each, no entry over 1 MiB expanding more than 100-fold.
    public static let `default` = PackageLimits()
}
