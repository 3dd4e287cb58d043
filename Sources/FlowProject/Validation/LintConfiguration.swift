import FlowAnalysis
import FlowLua
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The lint options of a project: luacheck's defaults, then what `.luacheckrc` sets at its top
/// level (`ignore`, `enable`, `only`, `unused`, `unused_args`, `unused_secondaries`, `self`,
/// `allow_defined`, `allow_defined_top`, `max_line_length` and the code, string and comment
/// limits, `read_globals`), then, for a file, each `files[...]` section whose path covers it.
struct LintConfiguration {
    var base = LintOptions()
    /// `files["path"]` sections, by path relative to the project folder (a folder covers its files).
    var sections: [(path: String, settings: [(String, String)])] = []
    var root = ""
    /// `read_globals` of the configuration: globals that may be read but not set.
    var readGlobals: Set<String> = []
    /// Whether a file (relative to the project folder) is a spec, which has busted's globals.
    var specFile: (@Sendable (String) -> Bool)?

    /// Read under the same rules and bounds as the configuration's globals
    /// (`LuacheckConfig.globals`, which reports what is refused).
    static func load(
        inProject root: URL, allowsOutsideLinks: Bool = false, specFile: (@Sendable (String) -> Bool)? = nil
    ) -> LintConfiguration {
        var configuration = LintConfiguration()
        configuration.root = root.standardizedFileURL.path
        configuration.specFile = specFile
        guard let source = LuacheckConfig.contents(inProject: root, allowsOutsideLinks: allowsOutsideLinks),
            let entries = try? LuacheckConfig.entries(source, chunkName: LuacheckConfig.fileName)
        else { return configuration }
        var sections: [String: [(String, String)]] = [:]
        for entry in entries {
            if entry.hasPrefix("opt:"), let (key, value) = split(entry.dropFirst(4)) {
                if key == "read_globals" { configuration.readGlobals.insert(value) }
                apply(key, value, to: &configuration.base)
            } else if entry.hasPrefix("optf:"), let tab = entry.firstIndex(of: "\t"),
                let (key, value) = split(entry[entry.index(after: tab)...])
            {
                let path = String(entry[entry.index(entry.startIndex, offsetBy: 5)..<tab])
                sections[path, default: []].append((key, value))
            }
        }
        // Shorter paths first, so a file's own section has the last word.
        configuration.sections = sections.sorted { $0.key.count < $1.key.count }.map { ($0.key, $0.value) }
        return configuration
    }

    static func split(_ text: Substring) -> (String, String)? {
        guard let equals = text.firstIndex(of: "=") else { return nil }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }

    /// One option, as luacheck means it.
    static func apply(_ key: String, _ value: String, to options: inout LintOptions) {
        let flag = value == "true"
        let length: Int? = value == "false" ? nil : Int(value)
        switch key {
        case "ignore": options.ignore.append(value)
        case "enable": options.enable.append(value)
        case "only": options.only = (options.only ?? []) + [value]
        case "unused": if !flag { options.ignore += ["21", "22", "23", "24", "31"] }
        case "redefined": if !flag { options.ignore += ["41"] }
        case "unused_args": options.unusedArguments = flag
        case "unused_secondaries": options.unusedSecondaries = flag
        case "self": options.unusedSelf = flag
        case "allow_defined": options.allowDefined = flag
        case "allow_defined_top": options.allowDefinedTop = flag
        case "max_line_length": options.maximumLineLength = length
        case "max_code_line_length": options.maximumCodeLineLength = .some(length)
        case "max_string_line_length": options.maximumStringLineLength = .some(length)
        case "max_comment_line_length": options.maximumCommentLineLength = .some(length)
        case "read_globals": options.readGlobals.insert(value)
        default: break
        }
    }

    func options(forFile path: String) -> LintOptions {
        guard !sections.isEmpty || specFile != nil else { return base }
        var options = base
        var relative = path
        if relative.hasPrefix(root + "/") { relative.removeFirst(root.count + 1) }
        if let specFile, specFile(relative) { options.globals.formUnion(LuacheckConfig.standardSets["busted"] ?? []) }
        for section in sections {
            let folder = section.path.hasSuffix("/") ? section.path : section.path + "/"
            // luacheck's paths are relative to where it runs: the project folder, or Sources/.
            let matches = [relative, relative.split(separator: "/", maxSplits: 1).last.map(String.init) ?? relative]
                .contains { $0 == section.path || $0.hasPrefix(folder) }
            guard matches else { continue }
            for (key, value) in section.settings { Self.apply(key, value, to: &options) }
        }
        return options
    }
}
