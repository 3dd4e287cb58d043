/// luacheck's 214 (an argument named as unused, `_event`, that is read), and the wording of the
/// value classes (`ValueFlow`) and of 551.
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
            facts.findings.append(LintFinding(214, line: variable.line, column: variable.column, name: name))
        }
        return true
    }
}

extension LintRules {
    static func describeValueFlow(_ finding: LintFinding, options: LintOptions) -> (String, String)? {
        let name = finding.name
        let fate = finding.detail.isEmpty ? "is unused" : "is overwritten on line \(finding.detail) before use"
        switch finding.warning.rawValue {
        case 214: return ("used variable '\(name)' with unused hint", name)
        case 311: return ("value assigned to variable '\(name)' \(fate)", name)
        case 312: return ("value of argument '\(name)' \(fate)", name)
        case 313: return ("value of loop variable '\(name)' \(fate)", name)
        case 321: return ("accessing uninitialized variable '\(name)'", name)
        case 331: return ("value assigned to variable '\(name)' is mutated but never accessed", name)
        case 341: return ("mutating uninitialized variable '\(name)'", name)
        case 551: return ("empty statement", "")
        default: return nil
        }
    }
}
