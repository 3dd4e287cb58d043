import FlowDiagnostics
import LuaSyntax

/// A `;` that ends no statement.
struct EmptyStatementRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP458", luacheck: 551, title: "empty statement",
        explanation: "A `;` that ends no statement (`;;`, a block opening with `;`).")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("empty statement", "")
    }

}

/// The parser finds the empty statements (`LuaParser.emptyStatements`): the syntax tree keeps no
/// node for a `;`, so the walk never meets one.
extension LintFacts {
    mutating func noteEmptyStatements(_ places: [SourceLocation]) {
        for place in places {
            findings.append(EmptyStatementRule.finding(line: Int32(place.line), column: Int32(place.column)))
        }
    }
}
