/// luacheck's 411–413 (a name declared again in the same scope), 421–423 (a local hiding one
/// of the same function) and 431–433 (one hiding an upvalue, a local of an enclosing function):
/// each in its rule's `declared`, which `ModuleLinter.newVariable` calls.
extension ModuleLinter {
    /// A finding of `rule` at a declaration hiding `earlier`, naming `earlier`'s line.
    mutating func report<Rule: LintClass>(_ rule: Rule.Type, _ declaration: Declaration, hiding earlier: Variable) {
        facts.findings.append(
            Rule.finding(
                line: declaration.line, column: declaration.column, name: text(declaration.symbol),
                detail: String(earlier.line)))
    }
}
