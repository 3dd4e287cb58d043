import FlowLiveProtocol

/// The breakpoints a debugger set, by source, and where each stands in the code loaded.
struct BreakpointTable {
    struct Entry {
        var spec: DebugBreakpoint
        var source: DebugSourceKey
        /// The loaded chunk it applies to, once its module has loaded.
        var chunk: String?
        var line: Int
        var verified = false
        var message: String?
        var hits = 0
        /// A function breakpoint's name (its `source` is then where it was found).
        var functionName: String?

        var id: Int { spec.id }
        var condition: String? { spec.condition }
        var logMessage: String? { spec.logMessage }
        var state: DebugBreakpointState {
            DebugBreakpointState(
                id: id, verified: verified, line: line, message: message,
                source: functionName != nil && verified ? source : nil)
        }
    }

    /// A loaded source: its lines with code when known, its digest, and its named functions.
    struct Loaded {
        var source: DebugSourceKey
        var lines: Set<Int>?
        var digest: String?
        var functions: [FunctionEntries.Entry] = []
    }

    private(set) var entries: [Entry] = []
    /// The sources loaded so far, with their active lines when known.
    private var loadedSources: [Loaded] = []
    /// What `hits` reads: chunk -> line -> indexes in `entries`.
    private var index: [String: [Int: [Int]]] = [:]

    init() {}

    /// No breakpoint, the loaded sources of `other`.
    init(keepingSourcesOf other: BreakpointTable) {
        loadedSources = other.loadedSources
    }

    /// Every loaded source.
    var sources: [DebugSourceKey] { loadedSources.map(\.source) }

    /// Replaces the breakpoints of `source`; returns their states.
    mutating func set(_ specs: [DebugBreakpoint], in source: DebugSourceKey) -> [DebugBreakpointState] {
        entries.removeAll { $0.functionName == nil && Self.same($0.source, source) }
        var states: [DebugBreakpointState] = []
        for spec in specs {
            var entry = Entry(spec: spec, source: source, line: spec.line)
            if let loaded = loadedSources.last(where: { Self.same($0.source, source) }) {
                Self.resolve(&entry, in: loaded.source, lines: loaded.lines, digest: loaded.digest)
            } else {
                entry.message = "not loaded yet: verified when its module loads"
            }
            entries.append(entry)
            states.append(entry.state)
        }
        reindex()
        return states
    }

    /// Replaces the function breakpoints; returns their states.
    mutating func setFunctions(_ specs: [DebugFunctionBreakpoint]) -> [DebugBreakpointState] {
        entries.removeAll { $0.functionName != nil }
        var states: [DebugBreakpointState] = []
        for spec in specs {
            var entry = Entry(
                spec: DebugBreakpoint(id: spec.id, line: 0, condition: spec.condition, hitCondition: spec.hitCondition),
                source: DebugSourceKey(chunk: ""), line: 0, functionName: spec.name)
            entry.message = "no function named '\(spec.name)' in the code loaded so far"
            for loaded in loadedSources where !entry.verified { Self.resolveFunction(&entry, in: loaded) }
            entries.append(entry)
            states.append(entry.state)
        }
        reindex()
        return states
    }

    /// Notes a loaded source and resolves the breakpoints set in it (and the function
    /// breakpoints not found yet); returns their states.
    mutating func loaded(_ loaded: Loaded) -> [DebugBreakpointState] {
        let source = loaded.source
        loadedSources.removeAll { $0.source == source }
        loadedSources.append(loaded)
        var changed: [DebugBreakpointState] = []
        for position in entries.indices {
            if entries[position].functionName != nil {
                guard !entries[position].verified else { continue }
                Self.resolveFunction(&entries[position], in: loaded)
                if entries[position].verified { changed.append(entries[position].state) }
            } else if Self.same(entries[position].source, source) {
                Self.resolve(&entries[position], in: source, lines: loaded.lines, digest: loaded.digest)
                changed.append(entries[position].state)
            }
        }
        reindex()
        return changed
    }

    private static func resolveFunction(_ entry: inout Entry, in loaded: Loaded) {
        guard let name = entry.functionName,
            let found = loaded.functions.first(where: { FunctionEntries.matches($0.name, name) })
        else { return }
        entry.source = loaded.source
        entry.chunk = loaded.source.chunk
        entry.line = found.line
        entry.verified = true
        entry.message = nil
    }

    /// The lines with code in a loaded source, when known.
    func lines(of source: DebugSourceKey) -> Set<Int>? {
        loadedSources.last(where: { Self.same($0.source, source) })?.lines
    }

    /// The loaded source a key names (by module name or chunk).
    func loadedSource(matching source: DebugSourceKey) -> DebugSourceKey? {
        loadedSources.last(where: { Self.same($0.source, source) })?.source
    }

    /// The breakpoints at `line` of `chunk`.
    func hits(chunk: String, line: Int) -> [Entry] {
        (index[chunk]?[line] ?? []).map { entries[$0] }
    }

    /// Counts a hit of `entry` and tells whether its hit condition lets it act.
    mutating func countHit(_ entry: Entry) -> Bool {
        guard let position = entries.firstIndex(where: { $0.id == entry.id }) else { return false }
        entries[position].hits += 1
        return Self.hitConditionHolds(entry.spec.hitCondition, hits: entries[position].hits)
    }

    /// Lines with breakpoints, by chunk: what the hooks watch.
    var linesByChunk: [String: Set<Int>] {
        index.mapValues { Set($0.keys) }
    }

    private static func resolve(_ entry: inout Entry, in source: DebugSourceKey, lines: Set<Int>?, digest: String?) {
        entry.chunk = source.chunk
        entry.line = entry.spec.line
        // Set in a project's file, met in another copy of its module (a package's): only the
        // same bytes have the same lines.
        if source.chunk != entry.source.chunk, let expected = entry.spec.fileDigest, let digest, expected != digest {
            entry.verified = false
            entry.message =
                "module '\(source.module ?? source.chunk)' as loaded from \(source.chunk) differs from this file: export the project again"
            return
        }
        guard let lines else {
            entry.verified = true
            entry.message = nil
            return
        }
        if let next = lines.filter({ $0 >= entry.spec.line }).min() {
            entry.line = next
            entry.verified = true
            entry.message = nil
        } else {
            entry.verified = false
            entry.message = "no code at or after line \(entry.spec.line)"
        }
    }

    private mutating func reindex() {
        index = [:]
        for (position, entry) in entries.enumerated() where entry.verified {
            guard let chunk = entry.chunk else { continue }
            index[chunk, default: [:]][entry.line, default: []].append(position)
        }
    }

    private static func same(_ a: DebugSourceKey, _ b: DebugSourceKey) -> Bool {
        if let first = a.module, let second = b.module { return first == second }
        return plain(a.chunk) == plain(b.chunk)
    }

    /// A chunk name without the `./` a `package.path` template puts before a file's name
    /// (`require` loads `./util.lua`, the editor names `util.lua`).
    private static func plain(_ chunk: String) -> Substring {
        var text = Substring(chunk)
        while text.hasPrefix("./") { text = text.dropFirst(2) }
        return text
    }

    /// `5` or `== 5`: the fifth hit; `>= 5`, `> 5`, `<= 5`, `< 5`; `% 5`: every fifth.
    static func hitConditionHolds(_ condition: String?, hits: Int) -> Bool {
        guard let condition = condition?.trimmedOfSpaces, !condition.isEmpty else { return true }
        let operators = [">=", "<=", "==", ">", "<", "%", ""]
        for prefix in operators where condition.hasPrefix(prefix) {
            guard let value = Int(String(condition.dropFirst(prefix.count)).trimmedOfSpaces) else { continue }
            switch prefix {
            case ">=": return hits >= value
            case "<=": return hits <= value
            case ">": return hits > value
            case "<": return hits < value
            case "%": return value > 0 && hits % value == 0
            default: return hits == value
            }
        }
        return true
    }
}

extension String {
    fileprivate var trimmedOfSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
