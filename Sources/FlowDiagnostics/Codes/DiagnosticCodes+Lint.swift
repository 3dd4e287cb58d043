// Lint (issue 34): luacheck's warning classes, each with its luacheck number, and the checks
// only a whole-project view makes (FP48x). Warnings, all of them; they can be silenced.
extension DiagnosticCode {
    public static let settingGlobal = DiagnosticCode(
        "FP409", .warning, "setting a non-standard global (luacheck 111)",
        "A module assigns a global that neither Lua 5.4, the environment, flowpkg.json's \"globals\" nor .luacheckrc declares (`x = 1`, `function x() end`): often a missing `local`."
    )
    public static let mutatingGlobal = DiagnosticCode(
        "FP410", .warning, "mutating a non-standard global (luacheck 112)",
        "A module sets a field of a global nothing declares (`x.y = 1`).")
    public static let settingReadOnlyGlobal = DiagnosticCode(
        "FP411", .warning, "setting a read-only global (luacheck 121)",
        "A module assigns a global of Lua's standard library or the environment (`string = 2`).")
    public static let settingReadOnlyField = DiagnosticCode(
        "FP412", .warning, "setting a read-only field of a global (luacheck 122)",
        "A module replaces a field of a standard library table (`string.format = f`).")
    public static let unusedGlobal = DiagnosticCode(
        "FP413", .warning, "unused global (luacheck 131)",
        "With .luacheckrc's allow_defined or allow_defined_top, a module defines a global no module reads.")
    public static let settingUndefinedField = DiagnosticCode(
        "FP414", .warning, "setting an undefined field of a global (luacheck 142)",
        "A module adds a field to a standard library table (`table.unpack2 = 1`).")
    public static let undefinedField = DiagnosticCode(
        "FP415", .warning, "accessing an undefined field of a global (luacheck 143)",
        "A module reads a field Lua 5.4's library table does not have (`string.formt`): often a typo. A field of another Lua version read where the code tests it (`math.pow or f`) is not reported."
    )
    public static let unusedVariable = DiagnosticCode(
        "FP421", .warning, "unused variable (luacheck 211)",
        "A local variable or local function is never read (a function called only from its own body too).")
    public static let unusedArgument = DiagnosticCode(
        "FP422", .warning, "unused argument (luacheck 212)",
        "A function's argument (its implicit self or its `...` too) is never read; name it `_` when it must be there.")
    public static let unusedLoopVariable = DiagnosticCode(
        "FP423", .warning, "unused loop variable (luacheck 213)",
        "A loop variable is never read; name it `_` when it must be there.")
    public static let variableNeverSet = DiagnosticCode(
        "FP425", .warning, "variable never set (luacheck 221)",
        "A local variable is read but never given a value: it is always nil.")
    public static let variableNeverAccessed = DiagnosticCode(
        "FP426", .warning, "variable never accessed (luacheck 231)",
        "A local variable is set, but its value is never read.")
    public static let argumentNeverAccessed = DiagnosticCode(
        "FP427", .warning, "argument never accessed (luacheck 232)",
        "An argument is set again, but never read.")
    public static let loopVariableNeverAccessed = DiagnosticCode(
        "FP428", .warning, "loop variable never accessed (luacheck 233)",
        "A loop variable is set, but never read.")
    public static let variableMutatedNeverAccessed = DiagnosticCode(
        "FP429", .warning, "variable mutated but never accessed (luacheck 241)",
        "A local table is filled (`t.x = 1`) but never read.")
    public static let fieldOverwritten = DiagnosticCode(
        "FP434", .warning, "table field overwritten (luacheck 314)",
        "A table constructor sets the same key twice (`{a = 1, a = 2}`): the first value is lost.")
    public static let redefinedLocal = DiagnosticCode(
        "FP441", .warning, "variable redefined (luacheck 411)",
        "A local is declared again in the same scope, hiding the first.")
    public static let redefinedArgument = DiagnosticCode(
        "FP442", .warning, "argument redefined (luacheck 412)",
        "A local of a function's body has the name of one of its arguments.")
    public static let redefinedLoopVariable = DiagnosticCode(
        "FP443", .warning, "loop variable redefined (luacheck 413)",
        "A local of a loop's body has the name of its loop variable.")
    public static let shadowedLocal = DiagnosticCode(
        "FP444", .warning, "shadowing a local (luacheck 421)",
        "A local in a nested block hides a local of the same function.")
    public static let shadowedArgument = DiagnosticCode(
        "FP445", .warning, "shadowing an argument (luacheck 422)",
        "A local in a nested block hides an argument of the same function.")
    public static let shadowedLoopVariable = DiagnosticCode(
        "FP446", .warning, "shadowing a loop variable (luacheck 423)",
        "A local in a nested block hides a loop variable of the same function.")
    public static let shadowedUpvalue = DiagnosticCode(
        "FP447", .warning, "shadowing an upvalue (luacheck 431)",
        "A local hides a local of an enclosing function.")
    public static let shadowedUpvalueArgument = DiagnosticCode(
        "FP448", .warning, "shadowing an upvalue argument (luacheck 432)",
        "A local hides an argument of an enclosing function (its implicit self too).")
    public static let shadowedUpvalueLoopVariable = DiagnosticCode(
        "FP449", .warning, "shadowing an upvalue loop variable (luacheck 433)",
        "A local hides a loop variable of an enclosing function.")
    public static let unreachableCode = DiagnosticCode(
        "FP451", .warning, "unreachable code (luacheck 511)",
        "Code after a return, break, goto, an if whose every branch leaves, or an endless loop: it never runs.")
    public static let loopRunsOnce = DiagnosticCode(
        "FP452", .warning, "loop executed at most once (luacheck 512)",
        "Every way through the loop's body ends in break or return.")
    public static let unusedLabel = DiagnosticCode(
        "FP453", .warning, "unused label (luacheck 521)",
        "No goto of the function names this label.")
    public static let assignmentTooManyValues = DiagnosticCode(
        "FP454", .warning, "more values than targets (luacheck 531)",
        "An assignment has more values on its right side than names on its left: the extra ones are lost.")
    public static let assignmentTooFewValues = DiagnosticCode(
        "FP455", .warning, "fewer values than targets (luacheck 532)",
        "An assignment has fewer values than targets, the last not a call: the extra targets get nil.")
    public static let emptyDoBlock = DiagnosticCode(
        "FP456", .warning, "empty do..end block (luacheck 541)",
        "A do..end block holds nothing.")
    public static let emptyIfBranch = DiagnosticCode(
        "FP457", .warning, "empty if branch (luacheck 542)",
        "An if, elseif or else branch holds nothing.")
    public static let reversedNumericLoop = DiagnosticCode(
        "FP459", .warning, "numeric for loop from #t up to 1 (luacheck 571)",
        "`for i = #t, 1 do` without a negative step runs at most once: add `, -1`.")
    public static let simplifiableNegation = DiagnosticCode(
        "FP460", .warning, "negation can be simplified (luacheck 581)",
        "`not (a == b)` says `a ~= b` (and the like), if neither side is a table or NaN.")
    public static let errorProneNegation = DiagnosticCode(
        "FP461", .warning, "error-prone negation (luacheck 582)",
        "`not a == b` compares `not a`, a boolean, with b: `not` binds tighter than comparison.")
    public static let whitespaceOnlyLine = DiagnosticCode(
        "FP471", .warning, "line contains only whitespace (luacheck 611)",
        "A line holds nothing but spaces or tabs.")
    public static let trailingWhitespace = DiagnosticCode(
        "FP472", .warning, "trailing whitespace (luacheck 612)",
        "A line of code ends in spaces or tabs.")
    public static let trailingWhitespaceInString = DiagnosticCode(
        "FP473", .warning, "trailing whitespace in a string (luacheck 613)",
        "A line inside a long string ends in spaces or tabs.")
    public static let trailingWhitespaceInComment = DiagnosticCode(
        "FP474", .warning, "trailing whitespace in a comment (luacheck 614)",
        "A comment ends in spaces or tabs.")
    public static let inconsistentIndentation = DiagnosticCode(
        "FP475", .warning, "inconsistent indentation (luacheck 621)",
        "A line's indentation has a space followed by a tab.")
    public static let unknownModuleField = DiagnosticCode(
        "FP481", .warning, "unknown field of a project module",
        "A module reads a field of a project module it required (`Banner.fram`) that the module's table does not have: the module returns a table whose every field is known (a constructor, `M.name = ...`, `function M.name()`), and no module adds this one. Often a typo: the hint names the closest field and where it is set."
    )
    public static let lineTooLong = DiagnosticCode(
        "FP476", .warning, "line too long (luacheck 631)",
        "A line is longer than the limit: 120 characters unless .luacheckrc sets max_line_length (or max_code_line_length, max_string_line_length, max_comment_line_length)."
    )
}

extension DiagnosticCodes {
    /// The lint codes by luacheck number (`211`): how `.luacheckrc` options and `-- luacheck:`
    /// comments name them.
    public static let byLuacheckNumber: [Int: DiagnosticCode] = [
        111: .settingGlobal, 112: .mutatingGlobal, 121: .settingReadOnlyGlobal, 122: .settingReadOnlyField,
        131: .unusedGlobal, 142: .settingUndefinedField, 143: .undefinedField, 211: .unusedVariable,
        212: .unusedArgument, 213: .unusedLoopVariable, 221: .variableNeverSet, 231: .variableNeverAccessed,
        232: .argumentNeverAccessed, 233: .loopVariableNeverAccessed, 241: .variableMutatedNeverAccessed,
        314: .fieldOverwritten, 411: .redefinedLocal, 412: .redefinedArgument, 413: .redefinedLoopVariable,
        421: .shadowedLocal, 422: .shadowedArgument, 423: .shadowedLoopVariable, 431: .shadowedUpvalue,
        432: .shadowedUpvalueArgument, 433: .shadowedUpvalueLoopVariable, 511: .unreachableCode, 512: .loopRunsOnce,
        521: .unusedLabel, 531: .assignmentTooManyValues, 532: .assignmentTooFewValues, 541: .emptyDoBlock,
        542: .emptyIfBranch, 571: .reversedNumericLoop, 581: .simplifiableNegation, 582: .errorProneNegation,
        611: .whitespaceOnlyLine, 612: .trailingWhitespace, 613: .trailingWhitespaceInString,
        614: .trailingWhitespaceInComment, 621: .inconsistentIndentation, 631: .lineTooLong, 113: .undefinedGlobal,
    ].merging(valueFlowByLuacheckNumber) { first, _ in first }

    /// The lint codes, in order.
    static let lintClasses: [DiagnosticCode] = [
        .settingGlobal, .mutatingGlobal, .settingReadOnlyGlobal, .settingReadOnlyField, .unusedGlobal,
        .settingUndefinedField, .undefinedField, .unusedVariable, .unusedArgument, .unusedLoopVariable,
        .variableNeverSet, .variableNeverAccessed, .argumentNeverAccessed, .loopVariableNeverAccessed,
        .variableMutatedNeverAccessed, .fieldOverwritten, .redefinedLocal, .redefinedArgument,
        .redefinedLoopVariable, .shadowedLocal, .shadowedArgument, .shadowedLoopVariable, .shadowedUpvalue,
        .shadowedUpvalueArgument, .shadowedUpvalueLoopVariable, .unreachableCode, .loopRunsOnce, .unusedLabel,
        .assignmentTooManyValues, .assignmentTooFewValues, .emptyDoBlock, .emptyIfBranch, .reversedNumericLoop,
        .simplifiableNegation, .errorProneNegation, .whitespaceOnlyLine, .trailingWhitespace,
        .trailingWhitespaceInString, .trailingWhitespaceInComment, .inconsistentIndentation, .lineTooLong,
        .unknownModuleField,
    ]
}
