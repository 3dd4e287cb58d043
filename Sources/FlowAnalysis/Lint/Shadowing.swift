/// luacheck's 411–413 (a name declared again in the same scope), 421–423 (a local hiding one
/// of the same function) and 431–433 (one hiding an upvalue, a local of an enclosing function).
extension ModuleLinter {
    mutating func noteShadowing(of earlier: Variable, symbol: Int32, line: Int32, column: Int32) {
        if symbol == underscoreSymbol { return }
        let offset: Int
        switch earlier.kind {
        case .local, .function: offset = 1
        case .argument, .implicitSelf: offset = 2
        case .loop: offset = 3
        }
        let base: Int
        if earlier.scope == scope {
            base = 410
        } else if earlier.function == currentFunction {
            base = 420
        } else {
            base = 430
        }
        facts.findings.append(
            LintFinding(base + offset, line: line, column: column, name: text(symbol), detail: String(earlier.line)))
    }
}
