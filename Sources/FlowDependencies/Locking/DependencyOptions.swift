import FlowSupport

/// How a command treats dependencies: like cargo's `--locked` and `--offline`, plus the
/// `--rocks-server` override and the cache to use.
public struct DependencyOptions: Sendable {
    /// Refuse a missing or out-of-date flowpkg.lock, or a path dependency changed since it.
    public var locked = false
    /// Never run luarocks or touch the network: files come from the cache or vendor/.
    public var offline = false
    /// Replaces flowpkg.json's `rocksServers` for this command.
    public var rocksServers: [String]? = nil
    public var cache = FileCache.standard()
    /// Also load what only `devDependencies` reach (`flowpkg test`); export, run and validate don't.
    public var includesDevelopment = false
    /// How project folders are read: FlowProject's `ProjectFolders`, which its `init(locked:offline:rocksServers:)` sets.
    public var projects: any ProjectFolderReading

    public init(
        projects: any ProjectFolderReading, locked: Bool = false, offline: Bool = false, rocksServers: [String]? = nil
    ) {
        self.projects = projects
        self.locked = locked
        self.offline = offline
        self.rocksServers = rocksServers
    }

    /// The servers to use: the override, flowpkg.json's, or luarocks.org; folders made absolute
    /// against `base` (the project folder, or the working directory for an override).
    func servers(for file: DependentProject, root: String, workingDirectory: String) -> [String] {
        let (list, base) = rocksServers.map { ($0, workingDirectory) } ?? (file.rocksServers, root)
        let servers = list.isEmpty ? ["https://luarocks.org"] : list
        return servers.map { server in
            server.contains("://") ? server : PathText.resolve(server, against: base)
        }
    }
}
