/// luacheck's 211–214, 221, 231–233 and 241 judge a local variable, argument or loop variable
/// when its scope ends, since every use of it lies within that scope: each in its rule's
/// `variableEnds`. What no rule judges is left out here.
extension ModuleLinter {
    mutating func judgeUse(of variable: Variable) {
        // `_` names what is thrown away; luacheck still reports a bare `local _` nothing reads.
        if variable.symbol == underscoreSymbol,
            variable.hasValue || variable.accessed || variable.assigned || variable.mutated || variable.kind != .local
        {
            return
        }
        if UsedUnusedHintRule.judges(variable, in: &self) { return }
        LintRuleList.variableEnds(variable, in: &self)
    }

    /// A finding of `rule` about a variable, at its declaration.
    mutating func report<Rule: LintClass>(_ rule: Rule.Type, _ variable: Variable, detail: String = "") {
        facts.findings.append(
            Rule.finding(line: variable.line, column: variable.column, name: text(variable.symbol), detail: detail))
    }
}

extension ModuleLinter.Kind {
    /// What luacheck's classes tell apart: locals (functions too), arguments (an implicit
    /// `self` too) and loop variables.
    enum Family { case local, argument, loop }

    var family: Family {
        switch self {
        case .local, .function: .local
        case .argument, .implicitSelf: .argument
        case .loop: .loop
        }
    }
}
