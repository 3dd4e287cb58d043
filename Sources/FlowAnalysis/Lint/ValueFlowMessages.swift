/// luacheck's 214: an argument named as unused (`_event`) that is read.
extension ModuleLinter {
    /// Whether `variable` is an argument named as unused and given no other value: then it is
    /// judged here (214 when read) instead of as an unused argument.
    mutating func isUnusedHint(_ variable: Variable, name: String) -> Bool {
        // `_ENV` as an argument is the environment of the function, not a hint.
        guard variable.kind == .argument, !variable.assigned, name != "_ENV" else { return false }
        let bytes = name.utf8
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "_") else { return false }
        let second = bytes[bytes.index(after: bytes.startIndex)]
        guard (second | 0x20) >= UInt8(ascii: "a"), (second | 0x20) <= UInt8(ascii: "z") else { return false }
        if variable.accessed {
            facts.findings.append(UsedUnusedHintRule.finding(line: variable.line, column: variable.column, name: name))
        }
        return true
    }
}
