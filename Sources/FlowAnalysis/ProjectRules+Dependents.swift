import FlowDiagnostics
import FlowPackage

// What an edit can change of the per-module findings (FP401, FP402, FP404, FP408, FP405).
extension ProjectRules {
    /// One module whose facts changed: before and after (nil: not analysed, or not there).
    public struct Change: Sendable {
        public var file: String
        public var before: ModuleFacts?
        public var after: ModuleFacts?

        public init(file: String, before: ModuleFacts?, after: ModuleFacts?) {
            self.file = file
            self.before = before
            self.after = after
        }
    }

    /// What a project looked like and looks like now, beyond its modules' facts: the modules
    /// loaded at start, the text of modules that did not compile, and which modules had FP405
    /// or FP401/FP402 findings last time.
    public struct Surroundings {
        public var loadedBefore: Set<String>?
        public var loadedAfter: Set<String>?
        public var unanalysedBefore: [[UInt8]]
        public var unanalysedAfter: [[UInt8]]
        /// Files with an FP405 finding last time: its hint names the closest defined global.
        public var withUndefinedGlobals: Set<String>
        /// Files with an FP401 or FP402 finding last time: a searcher added or gone changes them.
        public var withUnknownRequires: Set<String>

        public init(
            loadedBefore: Set<String>?, loadedAfter: Set<String>?, unanalysedBefore: [[UInt8]],
            unanalysedAfter: [[UInt8]], withUndefinedGlobals: Set<String>, withUnknownRequires: Set<String>
        ) {
            self.loadedBefore = loadedBefore
            self.loadedAfter = loadedAfter
            self.unanalysedBefore = unanalysedBefore
            self.unanalysedAfter = unanalysedAfter
            self.withUndefinedGlobals = withUndefinedGlobals
            self.withUnknownRequires = withUnknownRequires
        }
    }

    /// The files whose per-module findings may differ after `changes`, judged with the same
    /// rules over `modules` (the project as it is now): the changed modules themselves; the
    /// readers of a global a changed module defines, sets (where) or stops defining; with such
    /// a global, every module with an FP405 (its hint's closest name); the requirers of a module
    /// name a changed module registers or stops registering; with a searcher added or gone,
    /// every module with FP401 or FP402; the modules that start or stop loading at start; and
    /// the readers of a global that a module which did not compile, or compiles again, may define.
    /// Every other module's per-module findings are what they were.
    public static func filesToJudge(
        after changes: [Change], modules: [Module], surroundings: Surroundings
    ) -> Set<String> {
        var files = Set(changes.map(\.file))
        var globals: Set<String> = []
        var registered: Set<String> = []
        var searcherChanged = false
        for change in changes {
            globals.formUnion(changedGlobals(change.before, change.after))
            registered.formUnion(
                (change.before?.registeredModules ?? []).symmetricDifference(change.after?.registeredModules ?? []))
            searcherChanged =
                searcherChanged || (change.before?.addsSearcher ?? false) != (change.after?.addsSearcher ?? false)
        }
        let loadedFlipped = (surroundings.loadedBefore ?? []).symmetricDifference(surroundings.loadedAfter ?? [])
        let gradingChanged = (surroundings.loadedBefore == nil) != (surroundings.loadedAfter == nil)
        let unanalysedChanged = Set(surroundings.unanalysedBefore).symmetricDifference(surroundings.unanalysedAfter)
        // Usually nothing another module sees changed: the edited modules alone, without a walk.
        guard
            !globals.isEmpty || !registered.isEmpty || searcherChanged || !loadedFlipped.isEmpty || gradingChanged
                || !unanalysedChanged.isEmpty
        else { return files }
        let mayDefine = globalsMaybeDefined(unanalysedChanged)
        for module in modules where !files.contains(module.file) {
            let facts = module.facts
            if gradingChanged || loadedFlipped.contains(module.name.rawValue)
                || (searcherChanged && surroundings.withUnknownRequires.contains(module.file))
                || (!globals.isEmpty && surroundings.withUndefinedGlobals.contains(module.file))
                || facts.globalReads.contains(where: { globals.contains($0.name) || mayDefine($0.name) })
                || (!registered.isEmpty && facts.requires.contains { registered.contains($0.module) })
            {
                files.insert(module.file)
            }
        }
        return files
    }

    /// The globals whose definition `before` and `after` give differently: defined with `_G.x`
    /// or `rawset`, set plainly (and on which line: FP405's message names it), or set where
    /// luacheck's `allow_defined` options would define it.
    static func changedGlobals(_ before: ModuleFacts?, _ after: ModuleFacts?) -> Set<String> {
        let explicitBefore = before?.explicitGlobalWrites ?? []
        let explicitAfter = after?.explicitGlobalWrites ?? []
        var names = explicitBefore.symmetricDifference(explicitAfter)
        // Where a global is set matters only while nothing defines it: not for one this module defines.
        for name in (before?.globalWrites ?? []).union(after?.globalWrites ?? [])
        where before?.globalWrites.contains(name) != after?.globalWrites.contains(name)
            || (before?.globalWriteLocations[name]?.line != after?.globalWriteLocations[name]?.line
                && !(explicitBefore.contains(name) && explicitAfter.contains(name)))
        {
            names.insert(name)
        }
        func sets(_ facts: ModuleFacts?) -> Set<String> {
            Set((facts?.lint.globalSets ?? []).map { $0.isTopLevel ? $0.global : " " + $0.global })
        }
        for key in sets(before).symmetricDifference(sets(after)) {
            names.insert(key.hasPrefix(" ") ? String(key.dropFirst()) : key)
        }
        return names
    }

    /// Whether one of `sources` (modules that did not compile) may define a global, by name:
    /// FP405 leaves out a global such a module may define (`mayDefine`).
    static func globalsMaybeDefined(_ sources: Set<[UInt8]>) -> (String) -> Bool {
        guard !sources.isEmpty else { return { _ in false } }
        var words: Set<String> = []
        for source in sources { words.formUnion(Self.words(in: source)) }
        var known: [String: Bool] = [:]
        return { name in
            guard words.contains(name) else { return false }
            if let answer = known[name] { return answer }
            let answer = sources.contains { Self.mayDefine($0, name) }
            known[name] = answer
            return answer
        }
    }

    /// The names in `text` (runs of letters, digits and underscores not starting with a digit).
    static func words(in text: [UInt8]) -> Set<String> {
        var words: Set<String> = []
        var start: Int?
        for index in 0...text.count {
            let byte = index < text.count ? text[index] : 0x20
            let isWord =
                (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A || byte == 0x5F || (byte >= 0x30 && byte <= 0x39)
            if isWord {
                if start == nil, !(byte >= 0x30 && byte <= 0x39) { start = index }
            } else if let first = start {
                words.insert(String(decoding: text[first..<index], as: UTF8.self))
                start = nil
            }
        }
        return words
    }
}
