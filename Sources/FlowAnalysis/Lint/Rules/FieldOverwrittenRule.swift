import FlowDiagnostics
import LuaSyntax

/// A table constructor setting one key twice.
struct FieldOverwrittenRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP434", luacheck: 314, title: "table field overwritten",
        explanation: "A table constructor sets the same key twice (`{a = 1, a = 2}`): the first value is lost.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("value assigned to field '\(finding.name)' is overwritten on line \(finding.detail) before use", finding.name)
    }

    static func visits(_ kind: SyntaxKind) -> Bool { kind == .table }

    static func visit(_ id: Int32, _ table: SyntaxNode, in linter: inout ModuleLinter) {
        guard table.b > 1 else { return }
        // Most constructors are lists or have one key: no dictionary for them.
        var keyed = 0
        for index in Int(table.a)..<Int(table.a + table.b)
        where linter.nodes[Int(linter.lists[index])].kind == .keyedField {
            keyed += 1
        }
        guard keyed > 1 else { return }
        // Keys by symbol id, not text: two byte strings that are not UTF-8 must not look equal.
        // Integers, not Strings: every table constructor with two keyed fields comes here.
        var seen: [ConstructorKey: (line: Int32, column: Int32)] = [:]
        for index in Int(table.a)..<Int(table.a + table.b) {
            let field = linter.nodes[Int(linter.lists[index])]
            guard field.kind == .keyedField else { continue }
            let key = linter.nodes[Int(field.a)]
            let name: ConstructorKey
            switch key.kind {
            case .string:
                name = ConstructorKey(isNumber: false, value: Int(key.a))
            case .number:
                // Integers only, decimal or hexadecimal: `[0x49]` and `[73]` are one key.
                let numeral = linter.numeral(key)
                let value =
                    numeral.hasPrefix("0x") || numeral.hasPrefix("0X")
                    ? Int(numeral.dropFirst(2), radix: 16) : Int(numeral, radix: 10)
                guard let value else { continue }
                name = ConstructorKey(isNumber: true, value: value)
            default:
                continue
            }
            if let earlier = seen[name] {
                linter.facts.findings.append(
                    finding(
                        line: earlier.line, column: earlier.column,
                        name: key.kind == .string ? linter.text(key.a) : linter.numeral(key),
                        detail: String(field.line)))
            }
            seen[name] = (key.line, key.column)
        }
    }
}

/// A constant key of a table constructor: a string's symbol or an integer's value.
private struct ConstructorKey: Hashable {
    var isNumber: Bool
    var value: Int
}
