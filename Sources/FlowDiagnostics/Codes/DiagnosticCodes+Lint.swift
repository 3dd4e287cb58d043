// Lint (issue 34): luacheck's warning classes, each declared by its rule's file under
// Sources/FlowAnalysis/Lint/Rules/ (`LintCatalogueEntry`) and generated into this module at build
// time (`DiagnosticCodes.lintRules`), and the checks only a whole-project view makes (FP48x),
// written here. Warnings, all of them; they can be silenced.
extension DiagnosticCode {
    public static let unknownModuleField = DiagnosticCode(
        "FP481", .warning, "unknown field of a project module",
        "A module reads a field of a project module it required (`Banner.fram`) that the module's table does not have: the module returns a table whose every field is known (a constructor, `M.name = ...`, `function M.name()`), and no module adds this one. Often a typo: the hint names the closest field and where it is set."
    )
    public static let tooManyArguments = DiagnosticCode(
        "FP482", .warning, "too many arguments",
        "A call passes more arguments than the local or project-module function it calls has parameters (and the function takes no `...`): the extra values are dropped."
    )
    public static let missingArgument = DiagnosticCode(
        "FP483", .warning, "missing argument",
        "A call passes fewer arguments than the local or project-module function it calls has parameters, and the function uses a missing one without testing it first (`a.x`, `a + 1`, `a()`): it gets nil and fails."
    )
}

extension DiagnosticCodes {
    /// The lint codes by luacheck number (`211`): how `.luacheckrc` options and `-- luacheck:`
    /// comments name them. The rules' (generated) and 113, an undefined global (FP405, a project
    /// rule that needs every module's globals).
    public static let byLuacheckNumber: [Int: DiagnosticCode] = lintRulesByLuacheckNumber.merging([
        113: .undefinedGlobal
    ]) { first, _ in first }

    /// The lint codes, in order: the rules' and the project-wide checks'.
    static let lint: [DiagnosticCode] = (lintRules + [.unknownModuleField, .tooManyArguments, .missingArgument])
        .sorted { $0.code < $1.code }
}
