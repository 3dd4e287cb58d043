/// `--watch`'s require graph, made from the runs themselves: for each spec file, the modules its
/// last run required (each file runs in a fresh state, so the modules its modules required are
/// among them) by name and by file. A saved file reruns exactly the spec files that reached it.
public struct RequireGraph: Sendable, Equatable {
    /// Spec file (relative to the project folder) to the module names and files its run reached.
    public private(set) var reached: [String: Set<String>] = [:]

    public init() {}

    /// Takes in each file's `reached` from `report`, replacing what an earlier run of that file
    /// recorded.
    public mutating func record(_ report: TestReport) {
        for file in report.files {
            reached[file.file] = Set(file.reached.map(Self.normalized))
        }
    }

    /// The spec files among `specs` (in their order) to run again after the files `changed`
    /// (relative to the project folder) were saved: a changed spec file itself, and each whose
    /// last run reached a changed file, by its path or by the module name `moduleNames` gives it.
    /// A spec file with no recorded run yet (new, or never run) counts as reaching everything.
    public func affected(by changed: [String], moduleNames: [String: String], specs: [String]) -> [String] {
        var keys = Set<String>()
        for path in changed {
            keys.insert(Self.normalized(path))
            if let name = moduleNames[path] { keys.insert(name) }
        }
        let changedSet = Set(changed)
        return specs.filter { spec in
            if changedSet.contains(spec) { return true }
            guard let reached = reached[spec] else { return true }
            return !reached.isDisjoint(with: keys)
        }
    }

    /// A searcher's file as a path relative to the project folder: no `@`, no leading `./`.
    static func normalized(_ text: String) -> String {
        var text = Substring(text)
        if text.hasPrefix("@") { text = text.dropFirst() }
        while text.hasPrefix("./") { text = text.dropFirst(2) }
        return String(text)
    }
}
