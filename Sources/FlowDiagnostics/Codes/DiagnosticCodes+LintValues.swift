// Lint (issue 34), second part: luacheck's hint, value-flow and empty-statement classes, and the
// arity checks only a whole-project view makes. Warnings, all of them; they can be silenced.
extension DiagnosticCode {
    public static let usedUnusedHint = DiagnosticCode(
        "FP424", .warning, "used variable with unused hint (luacheck 214)",
        "An argument whose name starts with `_` and a letter (`_event`) says it is unused, but the function reads it: rename it, or stop reading it."
    )
    public static let unusedValue = DiagnosticCode(
        "FP431", .warning, "value assigned to a variable is unused (luacheck 311)",
        "A local is given a value that no later read can see: it is overwritten first on every way on, or never read again."
    )
    public static let unusedArgumentValue = DiagnosticCode(
        "FP432", .warning, "value of an argument is unused (luacheck 312)",
        "A function sets an argument again before any read of the value the caller passed: the caller's value is lost."
    )
    public static let unusedLoopValue = DiagnosticCode(
        "FP433", .warning, "value of a loop variable is unused (luacheck 313)",
        "A loop sets its loop variable again before any read of the value the loop gave it.")
    public static let uninitializedAccess = DiagnosticCode(
        "FP435", .warning, "accessing an uninitialized variable (luacheck 321)",
        "A local declared without a value is read where no assignment can have reached it yet: the read is always nil."
    )
    public static let mutatedUnusedValue = DiagnosticCode(
        "FP436", .warning, "value mutated but never accessed (luacheck 331)",
        "A table a local is given is filled (`t.x = 1`), then replaced before any read of it.")
    public static let uninitializedMutation = DiagnosticCode(
        "FP437", .warning, "mutating an uninitialized variable (luacheck 341)",
        "A local declared without a value is indexed to set a field (`local t; t.x = 1`) where it is always nil: the assignment fails at run time."
    )
    public static let emptyStatement = DiagnosticCode(
        "FP458", .warning, "empty statement (luacheck 551)",
        "A `;` that ends no statement (`;;`, a block opening with `;`).")
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
    /// The codes of this file by luacheck number.
    static let valueFlowByLuacheckNumber: [Int: DiagnosticCode] = [
        214: .usedUnusedHint, 311: .unusedValue, 312: .unusedArgumentValue, 313: .unusedLoopValue,
        321: .uninitializedAccess, 331: .mutatedUnusedValue, 341: .uninitializedMutation, 551: .emptyStatement,
    ]

    /// The lint codes, in order.
    static let lint: [DiagnosticCode] = (lintClasses + valueFlow).sorted { $0.code < $1.code }

    /// The codes of this file.
    static let valueFlow: [DiagnosticCode] = [
        .usedUnusedHint, .unusedValue, .unusedArgumentValue, .unusedLoopValue, .uninitializedAccess,
        .mutatedUnusedValue, .uninitializedMutation, .emptyStatement, .tooManyArguments, .missingArgument,
    ]
}
