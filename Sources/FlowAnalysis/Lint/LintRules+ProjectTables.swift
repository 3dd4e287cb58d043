import FlowPackage

extension LintRules {
    /// The whole-project tables the lint rules judge a module against: the globals any module
    /// reads (131), the globals `allow_defined` options define (111, 112), the fields (FP481) and
    /// functions (FP482, FP483) each module's table exports, and the fields modules add to others'
    /// tables. An editor's session keeps them and updates them for the modules an edit changed
    /// (`update`), which names the modules whose findings the change can alter: only those are
    /// judged again (issue 23: every module's 40 signatures made again per edit, 80,000 on the
    /// lsp benchmark's 2,000 modules, was half of an edit's time).
    public struct ProjectTables: Sendable {
        /// What each module gives the tables, and what of them its findings read, by file.
        private var contributions: [String: Contribution] = [:]
        /// How many modules read or mutate each global (luacheck's "used"), and the globals of them.
        private var usedCount: [String: Int] = [:]
        private(set) var used: Set<String> = []
        /// How many modules define each global implicitly (`allow_defined`), and the globals of them.
        private var implicitCount: [String: Int] = [:]
        private(set) var implicit: Set<String> = []
        /// The files of the modules whose table's fields, and whose table's functions, are known,
        /// by module name (more than one file when a script's name is a module's).
        private var fieldExporters: [String: [String]] = [:]
        private var functionExporters: [String: [String]] = [:]
        /// How many modules add each field to each global's table ("": in ways no one can follow).
        private var addedCount: [String: [String: Int]] = [:]
        /// The files whose findings read each global's entries, and each module name's.
        private var globalReaders: [String: Set<String>] = [:]
        private var moduleReaders: [String: Set<String>] = [:]

        /// The tables of `modules`, each under its own file's options.
        public init(modules: [ProjectRules.Module], options: (String) -> LintOptions) {
            for module in modules {
                add(Contribution(module, options: options(module.file)), of: module.file)
            }
        }

        /// Takes in the modules of the files in `changed` as they are now (`now`: a changed file
        /// with no module there is gone), and returns the files whose findings may differ: the
        /// changed ones, and those that read a global that came to be read or defined or stopped
        /// being, or a module whose exported fields or functions, or the fields others add to it, changed.
        public mutating func update(
            changed: Set<String>, now: [ProjectRules.Module], options: (String) -> LintOptions
        ) -> Set<String> {
            var after: [String: Contribution] = [:]
            for module in now where changed.contains(module.file) {
                after[module.file] = Contribution(module, options: options(module.file))
            }
            var globals: Set<String> = []
            var names: Set<String> = []
            for file in changed {
                let before = contributions[file]
                let now = after[file]
                globals.formUnion((before?.used ?? []).symmetricDifference(now?.used ?? []))
                globals.formUnion((before?.implicit ?? []).symmetricDifference(now?.implicit ?? []))
                if before?.name != now?.name || before?.fields != now?.fields || before?.functions != now?.functions {
                    for name in [before?.name, now?.name] { if let name { names.insert(name) } }
                }
                for added in (before?.added ?? []).symmetricDifference(now?.added ?? []) { names.insert(added.global) }
            }
            let candidates = Array(globals)
            let wasDefined = candidates.map { (used.contains($0), implicit.contains($0)) }
            for file in changed {
                if let before = contributions[file] { remove(before, of: file) }
                if let now = after[file] { add(now, of: file) }
            }
            var judging = changed
            for (global, was) in zip(candidates, wasDefined)
            where was != (used.contains(global), implicit.contains(global)) {
                judging.formUnion(globalReaders[global] ?? [])
            }
            for name in names { judging.formUnion(moduleReaders[name] ?? []) }
            return judging
        }

        /// The table a module named `name` exports: its file and its fields, when they are all known.
        func exportedFields(of name: String, in modules: [ProjectRules.Module]) -> (
            file: String, fields: [LintFacts.ExportedField]
        )? {
            guard let file = Self.last(fieldExporters[name], in: modules), let fields = contributions[file]?.fields
            else { return nil }
            return (file, fields)
        }

        /// The functions a module named `name` exports, by field, and its file.
        func exportedFunctions(of name: String, in modules: [ProjectRules.Module]) -> (
            file: String, functions: [String: FunctionSignature]
        )? {
            guard let file = Self.last(functionExporters[name], in: modules),
                let functions = contributions[file]?.functions
            else { return nil }
            return (file, functions)
        }

        /// Whether some module adds `field` to the table of `global` ("": fills it in ways no one follows).
        func adds(_ field: String, to global: String) -> Bool { addedCount[global]?[field] != nil }

        /// Of the files exporting under one name, the last module's, as a table made in module
        /// order keeps it.
        private static func last(_ files: [String]?, in modules: [ProjectRules.Module]) -> String? {
            guard let files, let first = files.first else { return nil }
            if files.count == 1 { return first }
            return modules.last { files.contains($0.file) }?.file
        }

        private mutating func add(_ contribution: Contribution, of file: String) {
            contributions[file] = contribution
            for global in contribution.used where Self.count(&usedCount, global, by: 1) { used.insert(global) }
            for global in contribution.implicit where Self.count(&implicitCount, global, by: 1) {
                implicit.insert(global)
            }
            if contribution.fields != nil { fieldExporters[contribution.name, default: []].append(file) }
            if contribution.functions != nil { functionExporters[contribution.name, default: []].append(file) }
            for added in contribution.added { addedCount[added.global, default: [:]][added.field, default: 0] += 1 }
            for global in contribution.globalsRead { globalReaders[global, default: []].insert(file) }
            for name in contribution.modulesRead { moduleReaders[name, default: []].insert(file) }
        }

        private mutating func remove(_ contribution: Contribution, of file: String) {
            contributions[file] = nil
            for global in contribution.used where Self.count(&usedCount, global, by: -1) { used.remove(global) }
            for global in contribution.implicit where Self.count(&implicitCount, global, by: -1) {
                implicit.remove(global)
            }
            fieldExporters[contribution.name]?.removeAll { $0 == file }
            if fieldExporters[contribution.name]?.isEmpty == true { fieldExporters[contribution.name] = nil }
            functionExporters[contribution.name]?.removeAll { $0 == file }
            if functionExporters[contribution.name]?.isEmpty == true { functionExporters[contribution.name] = nil }
            for added in contribution.added {
                addedCount[added.global]?[added.field]? -= 1
                if addedCount[added.global]?[added.field] == 0 { addedCount[added.global]?[added.field] = nil }
                if addedCount[added.global]?.isEmpty == true { addedCount[added.global] = nil }
            }
            for global in contribution.globalsRead { globalReaders[global]?.remove(file) }
            for name in contribution.modulesRead { moduleReaders[name]?.remove(file) }
        }

        /// Adds `step` to `key`'s count (a count of 0 removed); true when the key came or went.
        private static func count(_ counts: inout [String: Int], _ key: String, by step: Int) -> Bool {
            let now = counts[key, default: 0] + step
            counts[key] = now == 0 ? nil : now
            return now == 0 || (now == 1 && step == 1)
        }
    }

    /// What one module gives the project's tables, and the names its findings look up in them.
    struct Contribution: Sendable {
        var name: String
        /// The globals it reads or mutates.
        var used: Set<String> = []
        /// The globals it defines under `allow_defined`, `allow_defined_top`.
        var implicit: Set<String> = []
        /// Its table's fields and functions, when known (nil: not known, or it replaces `_ENV`).
        var fields: [LintFacts.ExportedField]?
        var functions: [String: FunctionSignature]?
        /// The fields it adds to other tables.
        var added: Set<AddedField> = []
        /// The globals whose entries in `used` and `implicit` its findings read: those it sets
        /// and those whose fields it sets.
        var globalsRead: Set<String> = []
        /// The modules whose exports, and the fields added to them, its findings read.
        var modulesRead: Set<String> = []

        struct AddedField: Hashable, Sendable {
            var global: String
            var field: String
        }

        init(_ module: ProjectRules.Module, options: LintOptions) {
            let facts = module.facts
            let lint = facts.lint
            name = module.name.rawValue
            for access in facts.globalReads { used.insert(access.name) }
            for set in lint.globalFieldSets { used.insert(set.global) }
            if options.allowDefined || options.allowDefinedTop {
                for set in lint.globalSets where options.allowDefined || set.isTopLevel { implicit.insert(set.global) }
            }
            if !facts.replacesEnvironment {
                fields = lint.exportedFields
                if !lint.exportedFunctions.isEmpty {
                    functions = Dictionary(lint.exportedFunctions.map { ($0.name, $0) }) { first, _ in first }
                }
            }
            for write in lint.moduleFieldWrites { added.insert(AddedField(global: write.global, field: write.field)) }
            for set in lint.globalSets { globalsRead.insert(set.global) }
            for set in lint.globalFieldSets { globalsRead.insert(set.global) }
            for read in lint.moduleFieldReads { modulesRead.insert(read.global) }
            for call in lint.moduleCalls { modulesRead.insert(call.module) }
        }
    }
}
