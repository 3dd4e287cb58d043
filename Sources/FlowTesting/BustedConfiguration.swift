import FlowLua
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// busted's `.busted` file: a Lua file returning tasks (`{ _all = {...}, default = {...} }`),
/// evaluated within bounds (memory, instructions, time), as `.luacheckrc` is, so a file that
/// loops stops with a message instead of hanging the run.
public struct BustedConfiguration: Sendable, Equatable {
    public static let fileName = ".busted"

    /// Folders or files to look for specs in (`ROOT`).
    public var roots: [String] = []
    /// Lua patterns a spec file's name must hold (`pattern`; busted's default `_spec`).
    public var patterns: [String] = []
    public var excludePatterns: [String] = []
    public var tags: [String] = []
    public var excludeTags: [String] = []
    public var filter: [String] = []
    public var filterOut: [String] = []
    public var lpath: String?
    public var helper: String?
    /// busted's output handler name (`utfTerminal`, `json`, `junit`, `TAP`).
    public var output: String?
    public var shuffle: Bool?
    public var seed: Int64?

    public init() {}

    /// What `.busted` in `root` says for `task`; nil when there is none.
    public static func read(inProject root: String, task: String = "default") throws(TestSetupError)
        -> BustedConfiguration?
    {
        let path = root + "/" + fileName
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .configuration(file: path, reason: "it cannot be read")
        }
        guard data.count <= 1 << 20 else {
            throw .configuration(file: path, reason: "it is larger than 1 MB; a configuration is a few lines")
        }
        let tasks: LuaValue
        do {
            tasks = try LuaSandbox().evaluate([UInt8](data), name: fileName).returned
        } catch {
            throw .configuration(file: path, reason: "\(error)")
        }
        guard case .table(let table) = tasks else {
            throw .configuration(file: path, reason: "it must return a table of tasks, like { default = { ... } }")
        }
        guard task == "default" || table[task] != nil else {
            throw .configuration(file: path, reason: "it has no task '\(task)'")
        }
        // busted's order: `_all`, then the task's own settings over it.
        var fields: [String: LuaValue] = [:]
        for part in [table["_all"], table[task]] {
            if case .table(let settings)? = part { fields.merge(settings) { _, own in own } }
        }
        return BustedConfiguration(fields)
    }

    /// The settings busted reads, from one task's table.
    init(_ fields: [String: LuaValue]) {
        func list(_ key: String) -> [String] {
            switch fields[key] {
            case .string(let text)?: return [text]
            case .array(let items)?: return items.compactMap { $0.stringValue ?? $0.doubleValue.map { "\($0)" } }
            default: return []
            }
        }
        func commaSeparated(_ key: String) -> [String] {
            list(key).flatMap { $0.split(separator: ",").map(String.init) }
        }
        roots = list("ROOT")
        patterns = list("pattern")
        excludePatterns = list("exclude-pattern")
        tags = commaSeparated("tags")
        excludeTags = commaSeparated("exclude-tags")
        filter = list("filter")
        filterOut = list("filter-out")
        lpath = fields["lpath"]?.stringValue
        helper = fields["helper"]?.stringValue
        output = fields["output"]?.stringValue
        if case .bool(let value)? = fields["shuffle"] { shuffle = value }
        switch fields["seed"] {
        case .integer(let value)?: seed = value
        case .string(let text)?: seed = Int64(text)
        default: break
        }
    }

    /// Which of `names` busted takes as spec files: one of `patterns` found in the name (any
    /// name when there are none), none of `excludes`.
    static func matching(_ names: [String], patterns: [String], excludes: [String]) throws -> [Bool] {
        func list(_ values: [String]) -> LuaValue { .array(values.map { .string($0) }) }
        let result = try evaluate(["match", list(names), list(patterns), list(excludes)])
        guard case .array(let flags) = result else { return names.map { _ in false } }
        return flags.map { $0 == .bool(true) }
    }

    /// Bounds for a configuration: it is a few lines.
    static let limits = LuaLimits(memory: 64 << 20, instructions: 10_000_000, seconds: 5)

    /// Runs `Embedded/lua/configuration.lua` with `arguments` (its mode first) in a bounded state.
    static func evaluate(_ arguments: [LuaValue]) throws -> LuaValue {
        let state = try LuaState(limits: limits)
        defer { state.close() }
        let results: [LuaValue]
        do {
            results = try state.run(EmbeddedRunnerLua.configuration, chunkName: "flowpkg:busted", arguments: arguments)
        } catch {
            if let bound = state.exceededLimit { throw TestSetupError.configuration(file: "", reason: exceeded(bound)) }
            throw error
        }
        if let bound = state.exceededLimit { throw TestSetupError.configuration(file: "", reason: exceeded(bound)) }
        if results.first == .nil, let reason = results.dropFirst().first?.stringValue {
            throw TestSetupError.configuration(file: "", reason: reason)
        }
        return results.first ?? .nil
    }

    private static func exceeded(_ bound: LuaLimits.Bound) -> String {
        switch bound {
        case .memory: return "it needs more than \(limits.memory >> 20) MB of memory"
        case .instructions: return "it runs too long (over \(limits.instructions / 1_000_000) million instructions)"
        case .time: return "it runs too long (over \(Int(limits.seconds)) seconds)"
        }
    }
}

/// Why a run cannot start: its configuration or its files.
public enum TestSetupError: Error, CustomStringConvertible, Equatable {
    /// `.busted` could not be used.
    case configuration(file: String, reason: String)
    /// A PATH or root given does not exist.
    case notFound(path: String)

    func located(at file: String) -> TestSetupError {
        if case .configuration(_, let reason) = self { return .configuration(file: file, reason: reason) }
        return self
    }

    public var description: String {
        switch self {
        case .configuration(let file, let reason):
            return "\(file): cannot be used: \(reason); fix it, or remove it to use busted's defaults"
        case .notFound(let path):
            return "\(path): no such file or folder; give a spec file or a folder of specs"
        }
    }
}
