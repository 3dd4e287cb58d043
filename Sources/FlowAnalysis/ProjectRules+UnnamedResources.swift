import FlowDiagnostics
import FlowPackage

// FP406: resources no module names.
extension ProjectRules {
    /// Whether `text` holds `word`'s bytes anywhere (a plain search: only modules with errors are searched).
    static func contains(_ text: [UInt8], _ word: String) -> Bool {
        let needle = Array(word.utf8)
        guard let first = needle.first, needle.count <= text.count else { return needle.isEmpty }
        var index = 0
        let last = text.count - needle.count
        while index <= last {
            if text[index] == first, text[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }

    static func unnamedResources(
        _ modules: [Module], resources: [ResourceKey: String],
        unanalysedSources: [[UInt8]] = []
    ) -> [Diagnostic] {
        guard !resources.isEmpty else { return [] }
        // Look up only the names resources could be named by, from whichever side is smaller:
        // a union of every module's literals would hash every string of the project once more.
        var wanted: Set<String> = []
        for key in resources.keys {
            wanted.insert(key.name)
            wanted.insert(key.fileName)
        }
        var named: Set<String> = []
        for module in modules {
            let literals = module.facts.stringLiterals
            if literals.count < wanted.count {
                for literal in literals where wanted.contains(literal) { named.insert(literal) }
            } else {
                for name in wanted where literals.contains(name) { named.insert(name) }
            }
        }
        var diagnostics: [Diagnostic] = []
        for (key, file) in resources where !named.contains(key.name) && !named.contains(key.fileName) {
            // A module that did not compile may name it; its error is reported, not this.
            if unanalysedSources.contains(where: { Self.contains($0, key.name) }) { continue }
            diagnostics.append(
                Diagnostic(
                    severity: .warning, code: .unnamedResource,
                    message: "resource '\(key.fileName)' is not named by any module",
                    file: file,
                    hint:
                        "no string literal is '\(key.name)' or '\(key.fileName)'; fine if a module computes the name, otherwise remove the file"
                ))
        }
        return diagnostics
    }
}
