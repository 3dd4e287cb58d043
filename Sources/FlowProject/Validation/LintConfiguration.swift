import FlowAnalysis
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The lint options of a project: luacheck's defaults, then what `.luacheckrc` sets at its top
/// level, then, for a file, each `files[...]` section whose path covers it.
struct LintConfiguration {
    var base = LintOptions()
    /// `files["path"]` sections, by path relative to the project folder (a folder covers its files).
    var sections: [(path: String, apply: (inout LintOptions) -> Void)] = []
    var root = ""
    /// `read_globals` of the configuration: globals that may be read but not set.
    var readGlobals: Set<String> = []

    static func load(inProject root: URL) -> LintConfiguration {
        var configuration = LintConfiguration()
        configuration.root = root.standardizedFileURL.path
        return configuration
    }

    func options(forFile path: String) -> LintOptions {
        guard !sections.isEmpty else { return base }
        var options = base
        var relative = path
        if relative.hasPrefix(root + "/") { relative.removeFirst(root.count + 1) }
        for section in sections
        where relative == section.path
            || relative.hasPrefix(section.path.hasSuffix("/") ? section.path : section.path + "/")
        {
            section.apply(&options)
        }
        return options
    }
}
