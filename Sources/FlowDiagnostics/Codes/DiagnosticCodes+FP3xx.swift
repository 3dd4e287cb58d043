// The catalogue, FP301–FP399: each module's text (see DiagnosticCodes.swift).
extension DiagnosticCode {
    // Each module
    public static let luaSyntaxError = DiagnosticCode(
        "FP301", .error, "Lua syntax error",
        "The module is not valid Lua 5.4: the real Lua compiler refused it at this place. Always an error, whether or not the module loads when the program starts: export would package it, and the require that first loads it would fail."
    )
    public static let notText = DiagnosticCode(
        "FP302", .error, "binary module",
        "The module is not Lua source text: it holds a NUL byte, or it is a precompiled Lua chunk.")
    public static let moduleTooLarge = DiagnosticCode(
        "FP303", .error, "module too large or nested too deep",
        "The module is too large, or nested too deeply for Lua's compiler (about 200 levels, 200 locals per function).")
    public static let syntaxErrorWhenLoaded = DiagnosticCode(
        "FP304", .warning, "retired: a syntax error is always FP301",
        "No longer reported. It was a syntax error in a module nothing loads at start, graded a warning; since export would package a module that cannot load, every syntax error is now an error, FP301."
    )
    public static let notUTF8 = DiagnosticCode(
        "FP305", .warning, "module is not UTF-8 text",
        "The module holds bytes that are not UTF-8 (Latin-1 text, say). Lua 5.4 reads source as bytes, so the module compiles, runs and is packaged as it is; editors and flowpkg's messages may show those bytes wrongly (a warning; save the file as UTF-8)."
    )
}
