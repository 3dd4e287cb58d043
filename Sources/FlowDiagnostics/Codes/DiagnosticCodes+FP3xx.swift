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

    // Formatting (`flowpkg fmt`, issue 48): a file's layout against StyLua's.
    public static let notFormatted = DiagnosticCode(
        "FP311", .error, "file not formatted",
        "flowpkg fmt --check: the file's layout is not the one StyLua's rules give for its configuration; `flowpkg fmt` rewrites it (the diff shows how)."
    )
    public static let invalidFormatConfiguration = DiagnosticCode(
        "FP312", .error, "invalid StyLua configuration",
        "stylua.toml, .stylua.toml or .editorconfig is not valid: not TOML, an unknown key, or a value of the wrong type. The files it applies to are not formatted."
    )
    public static let formatFileUnusable = DiagnosticCode(
        "FP313", .error, "file cannot be read or written",
        "flowpkg fmt cannot read the file, or cannot replace it (read-only, or its folder is not writable); the file is left as it was."
    )
    public static let formatWouldChangeMeaning = DiagnosticCode(
        "FP314", .error, "formatting would change the meaning",
        "flowpkg's own fault, reported rather than written: the formatted text does not compile to the same Lua 5.4 bytecode as the original, or loses a comment. The file is left as it was; please report it with the file."
    )
}
