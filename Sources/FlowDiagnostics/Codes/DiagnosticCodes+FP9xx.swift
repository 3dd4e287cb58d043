// The catalogue, FP901–FP999: types from LuaCATS annotations (see DiagnosticCodes.swift).
extension DiagnosticCode {
    // Types (issue 47): each is silenced by `---@diagnostic disable-next-line: NAME` with LuaLS's name.
    public static let malformedAnnotation = DiagnosticCode(
        "FP901", .warning, "malformed annotation",
        "A LuaCATS annotation (---@param, ---@class, …) could not be read; it is ignored. LuaLS name: luadoc-syntax."
    )
    public static let argumentTypeMismatch = DiagnosticCode(
        "FP902", .warning, "argument of the wrong type",
        "A literal argument is not of the type its ---@param annotation declares. LuaLS name: param-type-mismatch.")
    public static let tooManyReturns = DiagnosticCode(
        "FP903", .warning, "more values returned than declared",
        "A return statement gives more values than the function's ---@return annotations declare. LuaLS name: redundant-return-value."
    )
    public static let tooFewReturns = DiagnosticCode(
        "FP904", .warning, "fewer values returned than declared",
        "A return statement gives fewer values than the function's ---@return annotations declare as not nil. LuaLS name: missing-return-value."
    )
    public static let unknownClassField = DiagnosticCode(
        "FP905", .warning, "unknown field of a class",
        "A field read of a ---@class object that neither the class, its parents, nor any assignment declares. LuaLS name: undefined-field."
    )
    public static let callOfNonFunction = DiagnosticCode(
        "FP906", .warning, "call of a value that is no function",
        "A call of a local that holds a string, number or boolean, or of a field declared with such a type. LuaLS name: call-non-callable."
    )
    public static let assignmentTypeMismatch = DiagnosticCode(
        "FP907", .warning, "value of the wrong type for ---@type",
        "A literal assigned to a variable annotated ---@type is not of that type. LuaLS name: assign-type-mismatch.")
    public static let deprecatedUse = DiagnosticCode(
        "FP908", .warning, "deprecated function called",
        "A call of a function annotated ---@deprecated. LuaLS name: deprecated.")
    public static let unreadableLuaLSConfiguration = DiagnosticCode(
        "FP909", .warning, ".luarc.json unreadable",
        "lua-language-server's .luarc.json is not valid JSON (comments allowed); its globals, disabled diagnostics and libraries are not used."
    )
    public static let missingClassField = DiagnosticCode(
        "FP910", .warning, "constructor without a required field",
        "A table constructor given where a ---@class is expected lacks a ---@field that cannot be nil. LuaLS name: missing-fields."
    )
}
