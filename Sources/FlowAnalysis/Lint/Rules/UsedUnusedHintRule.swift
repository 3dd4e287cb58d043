import FlowDiagnostics
import LuaSyntax

/// An argument named as unused (`_event`) that is read.
struct UsedUnusedHintRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP424", luacheck: 214, title: "used variable with unused hint",
        explanation:
            "An argument whose name starts with `_` and a letter (`_event`) says it is unused, but the function reads it: rename it, or stop reading it."
    )

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("used variable '\(finding.name)' with unused hint", finding.name)
    }

    /// Whether `variable` is an argument named as unused (`_event`) and given no other value: then
    /// it is judged here (214 when read) instead of by the other rules of its end.
    static func judges(_ variable: ModuleLinter.Variable, in linter: inout ModuleLinter) -> Bool {
        guard variable.kind == .argument, !variable.assigned else { return false }
        let name = linter.text(variable.symbol)
        // `_ENV` as an argument is the environment of the function, not a hint.
        guard name != "_ENV" else { return false }
        let bytes = name.utf8
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "_") else { return false }
        let second = bytes[bytes.index(after: bytes.startIndex)]
        guard (second | 0x20) >= UInt8(ascii: "a"), (second | 0x20) <= UInt8(ascii: "z") else { return false }
        if variable.accessed {
            linter.facts.findings.append(finding(line: variable.line, column: variable.column, name: name))
        }
        return true
    }
}
