// The catalogue, FP401–FP408: static analysis (the lint codes, FP409 on: DiagnosticCodes+Lint.swift) (see DiagnosticCodes.swift).
extension DiagnosticCode {
    // Static analysis (can be silenced)
    public static let unknownRequire = DiagnosticCode(
        "FP401", .error, "unknown require",
        "require names a module that neither the project, Lua's standard library nor the environment provides, at a module's top level (unconditional, unprotected): loading the module fails, whether or not it loads at start."
    )
    public static let unknownRequireWhenRun = DiagnosticCode(
        "FP402", .warning, "unknown require reached only when it runs",
        "require names a module nobody provides, inside a function, a condition or a pcall: it fails when it runs (a warning)."
    )
    public static let requireCycle = DiagnosticCode(
        "FP403", .error, "require cycle",
        "Modules require each other in a cycle at their top level, and one of them loads when the program starts: Lua 5.4's require recurses until the stack overflows. Elsewhere a warning, FP407; a require inside a function breaks the cycle."
    )
    public static let unknownResource = DiagnosticCode(
        "FP404", .error, "getResource names no resource",
        "getResource names a resource (name and type) the project does not have, at a module's top level: loading the module fails, whether or not it loads at start. Inside a function or a condition, a warning, FP408."
    )
    public static let undefinedGlobal = DiagnosticCode(
        "FP405", .warning, "undefined global",
        "A global is read that neither the environment, flowpkg.json's \"globals\", .luacheckrc nor a _G.name = ... definition declares (luacheck's 113): often a typo or a missing local (a warning)."
    )
    public static let unnamedResource = DiagnosticCode(
        "FP406", .warning, "resource no module names",
        "No module names this resource in a string literal: it may be unused (a warning; silence it for resources whose names are computed)."
    )
    public static let requireCycleWhenRun = DiagnosticCode(
        "FP407", .warning, "require cycle reached only when it runs",
        "Modules require each other in a cycle at load time, but none of them loads when the program starts: the first require of one of them recurses until Lua stops with a stack overflow (a warning)."
    )
    public static let unknownResourceWhenRun = DiagnosticCode(
        "FP408", .warning, "getResource names no resource, reached only when it runs",
        "getResource names a resource the project does not have, inside a function or a condition: that call raises an error when it runs (a warning)."
    )
}
