import LuaSyntax

/// What the 1xx classes need from a module: reads of fields Lua 5.4's library tables do not
/// have (143). Assignments to globals and to their fields are noted as the walk meets them
/// (`ModuleLinter.assign`); `LintRules` judges them all against the project's environment.
extension ModuleLinter {
    /// `string.formt`: a field of a library table that Lua 5.4 does not have. Tested
    /// (`math.pow or f`), a field of another Lua version is portable code, not a typo.
    mutating func checkLibraryField(_ index: SyntaxNode, tested: Bool) {
        let object = nodes[Int(index.a)]
        guard object.kind == .name, isFreeName(object.a) else { return }
        let key = nodes[Int(index.b)]
        guard key.kind == .string else { return }
        let global = text(object.a)
        guard let known = StandardLibraryFields.fields[global] else { return }
        let field = text(key.a)
        if known.contains(field) { return }
        let guarded = tested && StandardLibraryFields.otherVersions[global]?.contains(field) == true
        facts.unknownFieldReads.append(
            .init(global: global, field: field, line: object.line, column: object.column, isGuarded: guarded))
    }
}
