import LuaSyntax

/// luacheck's 314: a table constructor that sets the same key twice (`{a = 1, a = 2}`, `{["x"]
/// = 1, x = 2}`, `{[1] = a, [1] = b}`): the first value is overwritten before anyone reads it.
extension ModuleLinter {
    mutating func checkDuplicateKeys(_ table: SyntaxNode) {
        guard table.b > 1 else { return }
        // Most constructors are lists or have one key: no dictionary for them.
        var keyed = 0
        for index in Int(table.a)..<Int(table.a + table.b) where nodes[Int(lists[index])].kind == .keyedField {
            keyed += 1
        }
        guard keyed > 1 else { return }
        // Keys by symbol id, not text: two byte strings that are not UTF-8 must not look equal.
        // Integers, not Strings: every table constructor with two keyed fields comes here.
        var seen: [ConstructorKey: (line: Int32, column: Int32)] = [:]
        for index in Int(table.a)..<Int(table.a + table.b) {
            let field = nodes[Int(lists[index])]
            guard field.kind == .keyedField else { continue }
            let key = nodes[Int(field.a)]
            let name: ConstructorKey
            switch key.kind {
            case .string:
                name = ConstructorKey(isNumber: false, value: Int(key.a))
            case .number:
                // Integers only, decimal or hexadecimal: `[0x49]` and `[73]` are one key.
                let numeral = self.numeral(key)
                let value =
                    numeral.hasPrefix("0x") || numeral.hasPrefix("0X")
                    ? Int(numeral.dropFirst(2), radix: 16) : Int(numeral, radix: 10)
                guard let value else { continue }
                name = ConstructorKey(isNumber: true, value: value)
            default:
                continue
            }
            if let earlier = seen[name] {
                facts.findings.append(
                    FieldOverwrittenRule.finding(
                        line: earlier.line, column: earlier.column,
                        name: key.kind == .string ? text(key.a) : self.numeral(key),
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
