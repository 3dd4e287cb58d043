/// luacheck's 211–213, 221, 231–233 and 241: a local variable, argument or loop variable judged
/// when its scope ends, since every use of it lies within that scope.
extension ModuleLinter {
    mutating func judgeUse(of variable: Variable) {
        // `_` names what is thrown away; luacheck still reports a bare `local _` nothing reads.
        if variable.symbol == underscoreSymbol,
            variable.hasValue || variable.accessed || variable.assigned || variable.mutated || variable.kind != .local
        {
            return
        }
        // The name's String is made only for a finding: most variables have none.
        var name: String { text(variable.symbol) }
        let line = variable.line
        let column = variable.column
        if isUnusedHint(variable, name: name) { return }
        if !variable.accessed {
            if variable.mutated {
                // Filling an argument's table, or one the variable did not make, is a use.
                if variable.kind == .local, variable.holdsNewTable, !variable.assigned {
                    facts.findings.append(
                        VariableMutatedNeverAccessedRule.finding(line: line, column: column, name: name))
                }
                return
            }
            switch variable.kind {
            case .local, .function:
                if variable.assigned {
                    facts.findings.append(VariableNeverAccessedRule.finding(line: line, column: column, name: name))
                } else {
                    var detail =
                        variable.kind == .function
                        ? (variable.accessedInOwnBody ? "recursive function" : "function") : "variable"
                    if variable.group >= 0,
                        (variable.group..<(variable.group + variable.groupCount)).contains(where: {
                            variables[Int($0)].accessed
                        })
                    {
                        detail = "secondary"
                    }
                    facts.findings.append(
                        UnusedVariableRule.finding(line: line, column: column, name: name, detail: detail))
                }
            case .argument, .implicitSelf:
                facts.findings.append(
                    LintFinding(variable.assigned ? 232 : 212, line: line, column: column, name: name))
            case .loop:
                facts.findings.append(
                    LintFinding(variable.assigned ? 233 : 213, line: line, column: column, name: name))
            }
        } else if !variable.hasValue, !variable.assigned, variable.kind == .local {
            facts.findings.append(VariableNeverSetRule.finding(line: line, column: column, name: name))
        }
    }
}
