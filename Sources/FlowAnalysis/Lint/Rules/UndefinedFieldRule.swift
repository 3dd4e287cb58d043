import FlowDiagnostics
import LuaSyntax

/// A field a standard library table lacks, read.
struct UndefinedFieldRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP415", luacheck: 143, title: "accessing an undefined field of a global",
        explanation:
            "A module reads a field Lua 5.4's library table does not have (`string.formt`): often a typo. A field of another Lua version read where the code tests it (`math.pow or f`) is not reported."
    )

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("accessing undefined field '\(finding.detail)' of global '\(finding.name)'", finding.name)
    }

    static func visits(_ kind: SyntaxKind) -> Bool { kind == .index }

    static func visit(_ id: Int32, _ index: SyntaxNode, in linter: inout ModuleLinter) {
        let object = linter.nodes[Int(index.a)]
        guard object.kind == .name, linter.isFreeName(object.a) else { return }
        let key = linter.nodes[Int(index.b)]
        guard key.kind == .string else { return }
        let global = linter.text(object.a)
        guard let known = StandardLibraryFields.fields[global] else { return }
        let field = linter.text(key.a)
        if known.contains(field) { return }
        let tested = linter.isTesting || linter.testedLeftOperand == id
        let guarded = tested && StandardLibraryFields.otherVersions[global]?.contains(field) == true
        linter.facts.unknownFieldReads.append(
            .init(global: global, field: field, line: object.line, column: object.column, isGuarded: guarded))
    }
}
