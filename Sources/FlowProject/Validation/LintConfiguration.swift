import FlowAnalysis
import FlowDiagnostics
import FlowLua
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The lint options of a project, as luacheck 1.1 reads `.luacheckrc`: its top-level options,
/// then each `files["glob"]` section whose glob matches a file (luacheck's own defaults among
/// them: `**/spec/**/*_spec.lua` gets `+busted`), least specific first; `include_files` and
/// `exclude_files` say which files are linted at all. A file's option stack is normalized as
/// luacheck's `options.normalize` does (`LintConfiguration+Normalize.swift`).
struct LintConfiguration {
    typealias OptionTable = [String: LuaValue]

    /// The top-level options (`.nil` values absent).
    var top: OptionTable = [:]
    /// `files[...]` sections, glob → options.
    var sections: [(glob: String, options: OptionTable)] = []
    /// `stds` definitions of the configuration: name → a std table (`globals`, `read_globals`).
    var customStandards: [String: OptionTable] = [:]
    var includeFiles: [String] = []
    var excludeFiles: [String] = []
    /// The project folder, which globs are relative to.
    var root = ""
    /// Whether the project has a `.luacheckrc` (without one, flowpkg's own defaults stand).
    var isLoaded = false
    /// Why `.luacheckrc` is not used: a refused link, or an error evaluating it.
    var diagnostics: [Diagnostic] = []
    /// Whether a file (relative to the project folder) is a spec, which has busted's globals.
    var specFile: (@Sendable (String) -> Bool)?

    /// The options luacheck gives files under these globs whatever the configuration says.
    static let defaultSections: [(String, String)] = [
        ("**/spec/**/*_spec.lua", "+busted"), ("**/test/**/*_spec.lua", "+busted"),
        ("**/tests/**/*_spec.lua", "+busted"), ("**/*.rockspec", "+rockspec"), ("**/*.luacheckrc", "+luacheckrc"),
        ("**/config.ld", "+ldoc"),
    ]

    /// `.luacheckrc` evaluated once (`LuacheckConfig.read`); what kept it from being used is
    /// in `diagnostics`.
    static func load(
        inProject root: URL, allowsOutsideLinks: Bool = false, specFile: (@Sendable (String) -> Bool)? = nil
    ) -> LintConfiguration {
        var configuration = LintConfiguration()
        configuration.root = root.standardizedFileURL.path
        configuration.specFile = specFile
        let read = LuacheckConfig.read(inProject: root, allowsOutsideLinks: allowsOutsideLinks)
        configuration.diagnostics = read.diagnostics
        if let options = read.options {
            configuration.read(options)
            configuration.isLoaded = true
        }
        configuration.addDefaultSections()
        return configuration
    }

    /// The configuration `options` (a `.luacheckrc`'s globals, as the sandbox copied them) give.
    init(options: OptionTable) {
        read(options)
        isLoaded = true
        addDefaultSections()
    }

    init() {}

    private mutating func read(_ options: OptionTable) {
        top = options
        if case .table(let files)? = options["files"] {
            for (glob, value) in files.sorted(by: { $0.key < $1.key }) {
                if case .table(let section) = value { sections.append((glob, section)) }
            }
        }
        if case .table(let stds)? = options["stds"] {
            for (name, value) in stds { if case .table(let std) = value { customStandards[name] = std } }
        }
        includeFiles = LuacheckEntries.names(in: options["include_files"])
        excludeFiles = LuacheckEntries.names(in: options["exclude_files"])
    }

    /// luacheck's `add_default_path_options`: a default glob's `std` unless the configuration's
    /// own section for the same glob sets one.
    private mutating func addDefaultSections() {
        for (glob, std) in Self.defaultSections {
            if let index = sections.firstIndex(where: { $0.glob == glob }) {
                if sections[index].options["std"] == nil { sections[index].options["std"] = .string(std) }
            } else {
                sections.append((glob, ["std": .string(std)]))
            }
        }
    }

    /// `path` relative to the project folder.
    func relative(_ path: String) -> String {
        var relative = path
        if relative.hasPrefix(root + "/") { relative.removeFirst(root.count + 1) }
        return LuacheckGlob.normalized(relative)
    }

    /// Whether luacheck checks the file at `path` under `include_files` and `exclude_files`.
    func lints(file path: String) -> Bool {
        let relative = relative(path)
        if excludeFiles.contains(where: { LuacheckGlob.matches($0, relative) }) { return false }
        return includeFiles.isEmpty || includeFiles.contains { LuacheckGlob.matches($0, relative) }
    }

    /// The option tables that apply to the file at `path`, least specific first.
    func stack(forFile path: String) -> [OptionTable] {
        [top] + matchingSections(relative(path)).map { sections[$0].options }
    }

    /// The indices of the sections whose globs match `relative`, least specific first.
    private func matchingSections(_ relative: String) -> [Int] {
        sections.indices.filter { LuacheckGlob.matches(sections[$0].glob, relative) }
            .sorted { LuacheckGlob.lessSpecific(sections[$0].glob, sections[$1].glob) }
    }

    /// What a file's options are made of: the sections matching it, and whether it is a spec.
    /// Files with one key have the same options.
    struct OptionsKey: Hashable, Sendable {
        var sections: [Int]
        var isSpec: Bool
    }

    func optionsKey(forFile path: String) -> OptionsKey {
        let relative = relative(path)
        return OptionsKey(sections: matchingSections(relative), isSpec: specFile?(relative) ?? false)
    }

    /// The key of a file no section matches, which is no spec: its options are `topOptions`.
    var topKey: OptionsKey { OptionsKey(sections: [], isSpec: false) }

    /// The normalized options for the file at `path`.
    func options(forFile path: String) -> LintOptions {
        var options = normalize(stack(forFile: path))
        if let specFile, specFile(relative(path)) { options.readGlobals.formUnion(LuacheckStandards.busted) }
        return options
    }

    /// The top level's options alone (what applies to every file).
    var topOptions: LintOptions { normalize([top]) }
}
