import LuaSyntax

/// luacheck's 551: a `;` that follows no statement (`;;`, a block opening with `;`). The parser
/// finds them (`LuaParser.emptyStatements`): the syntax tree keeps no node for a `;`.
extension LintFacts {
    mutating func noteEmptyStatements(_ places: [SourceLocation]) {
        for place in places {
            findings.append(EmptyStatementRule.finding(line: Int32(place.line), column: Int32(place.column)))
        }
    }
}
