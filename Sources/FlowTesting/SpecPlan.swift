/// Which spec files a run takes and with which options, from what the command line, the
/// project's `tests` key and `.busted` say (in that order of precedence), as busted would.
public struct SpecPlan: Sendable {
    public var files: [String]
    public var options: TestOptions
    /// `.busted`'s `output`, for a command given no format of its own.
    public var output: String?

    /// What the command line gave: PATHS relative to the project folder, and options set on
    /// it (a nil seed, empty lists: not given).
    public struct Request: Sendable {
        public var paths: [String] = []
        public var patterns: [String] = []
        public var options = TestOptions()
        /// Whether `--shuffle` was given.
        public var shuffleGiven = false
        /// `.busted`'s task (busted's `--run`).
        public var task = "default"

        public init() {}
    }

    /// The plan for the project at `root`, whose flowpkg.json lists `declaredFolders` (`tests`).
    public static func make(root: String, declaredFolders: [String], request: Request) throws(TestSetupError)
        -> SpecPlan
    {
        let configuration = try BustedConfiguration.read(inProject: root, task: request.task) ?? BustedConfiguration()
        var options = request.options
        if options.tags.isEmpty { options.tags = configuration.tags }
        if options.excludeTags.isEmpty { options.excludeTags = configuration.excludeTags }
        if options.filter.isEmpty { options.filter = configuration.filter }
        if options.filterOut.isEmpty { options.filterOut = configuration.filterOut }
        if options.lpath == TestOptions.defaultLPath, let lpath = configuration.lpath { options.lpath = lpath }
        if options.helper == nil { options.helper = configuration.helper }
        if !request.shuffleGiven, let shuffle = configuration.shuffle { options.shuffle = shuffle }
        if options.seed == nil { options.seed = configuration.seed }
        let roots =
            [request.paths, declaredFolders, configuration.roots].first { !$0.isEmpty } ?? SpecDiscovery.defaultRoots
        let patterns =
            [request.patterns, configuration.patterns].first { !$0.isEmpty } ?? SpecDiscovery.defaultPatterns
        let files = try SpecDiscovery.find(
            root: root, roots: roots, patterns: patterns, excludes: configuration.excludePatterns)
        return SpecPlan(files: files, options: options, output: configuration.output)
    }
}
