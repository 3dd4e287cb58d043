import FlowDependencies

extension DependencyOptions {
    /// The options with project folders read by FlowProject (`ProjectFolders`): what every
    /// command, export and the language server use.
    public init(locked: Bool = false, offline: Bool = false, rocksServers: [String]? = nil) {
        self.init(projects: ProjectFolders(), locked: locked, offline: offline, rocksServers: rocksServers)
    }
}
