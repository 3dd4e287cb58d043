import FlowPackage

extension ProjectRules {
    /// What FP405 reads of every module: the globals defined through the globals table
    /// (`_G.x = v`, `rawset(_G, "x", v)`) and where each global is set. An editor's session keeps
    /// them and takes in the modules an edit changed (`update`), instead of gathering them again
    /// from every module per edit (issue 23: a third of an lsp edit on 2,000 modules).
    public struct GlobalTables: Sendable {
        /// Each module's definitions, and the line where it first sets each global, by file.
        private var byFile: [String: (defined: Set<String>, setAt: [String: Int])] = [:]
        /// How many modules define each global.
        private var definedCount: [String: Int] = [:]
        /// The files of the modules setting each global: in module order until an update.
        private var setters: [String: [String]] = [:]
        private var isUpdated = false

        /// The tables of `modules`.
        public init(modules: [Module]) {
            for module in modules { add(module.facts, of: module.file) }
        }

        /// Takes in the changed modules' facts (none: the module is gone).
        public mutating func update(_ changes: [Change]) {
            isUpdated = true
            for change in changes {
                remove(change.file)
                if let facts = change.after { add(facts, of: change.file) }
            }
        }

        /// Whether some module defines `name` through the globals table.
        func defines(_ name: String) -> Bool { definedCount[name] != nil }

        /// The first module (in `modules`' order) that sets `name`: its file and the line.
        func setAt(_ name: String, in modules: [Module]) -> (file: String, line: Int)? {
            guard let files = setters[name], var file = files.first else { return nil }
            if files.count > 1, isUpdated {
                let setting = Set(files)
                file = modules.first { setting.contains($0.file) }?.file ?? file
            }
            return (file, byFile[file]?.setAt[name] ?? 0)
        }

        /// Every global some module defines or sets.
        var names: Set<String> { Set(definedCount.keys).union(setters.keys) }

        private mutating func add(_ facts: ModuleFacts, of file: String) {
            var setAt: [String: Int] = [:]
            for name in facts.globalWrites {
                setAt[name] = facts.globalWriteLocations[name]?.line ?? 0
                setters[name, default: []].append(file)
            }
            for name in facts.explicitGlobalWrites { definedCount[name, default: 0] += 1 }
            byFile[file] = (facts.explicitGlobalWrites, setAt)
        }

        private mutating func remove(_ file: String) {
            guard let (defined, setAt) = byFile.removeValue(forKey: file) else { return }
            for name in defined {
                let left = definedCount[name, default: 1] - 1
                definedCount[name] = left == 0 ? nil : left
            }
            for name in setAt.keys {
                setters[name]?.removeAll { $0 == file }
                if setters[name]?.isEmpty == true { setters[name] = nil }
            }
        }
    }
}
