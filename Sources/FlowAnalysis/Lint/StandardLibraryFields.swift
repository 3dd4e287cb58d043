/// The fields of Lua 5.4's library tables, as luacheck's `lua54` standard has them: reading
/// another is 143, setting one is 122 (another, 142). `package`'s tables that a program fills
/// (`path`, `cpath`, `loaded`, `preload`, `searchers`) may be set.
enum StandardLibraryFields {
    static let fields: [String: Set<String>] = [
        "string": [
            "byte", "char", "dump", "find", "format", "gmatch", "gsub", "len", "lower", "match", "pack", "packsize",
            "rep", "reverse", "sub", "unpack", "upper",
        ],
        "table": ["concat", "insert", "move", "pack", "remove", "sort", "unpack"],
        "math": [
            "abs", "acos", "asin", "atan", "ceil", "cos", "deg", "exp", "floor", "fmod", "huge", "log", "max",
            "maxinteger", "min", "mininteger", "modf", "pi", "rad", "random", "randomseed", "sin", "sqrt", "tan",
            "tointeger", "type", "ult",
        ],
        "io": [
            "close", "flush", "input", "lines", "open", "output", "popen", "read", "stderr", "stdin", "stdout",
            "tmpfile", "type", "write",
        ],
        "os": [
            "clock", "date", "difftime", "execute", "exit", "getenv", "remove", "rename", "setlocale", "time",
            "tmpname",
        ],
        "coroutine": ["close", "create", "isyieldable", "resume", "running", "status", "wrap", "yield"],
        "debug": [
            "debug", "gethook", "getinfo", "getlocal", "getmetatable", "getregistry", "getupvalue", "getuservalue",
            "sethook", "setlocal", "setmetatable", "setupvalue", "setuservalue", "traceback", "upvalueid",
            "upvaluejoin", "setcstacklimit",
        ],
        "utf8": ["char", "charpattern", "codepoint", "codes", "len", "offset"],
        "package": ["config", "cpath", "loaded", "loadlib", "path", "preload", "searchers", "searchpath"],
    ]

    /// Fields a program may set.
    static let writable: [String: Set<String>] = ["package": ["cpath", "loaded", "path", "preload", "searchers"]]

    /// Fields of other Lua versions (5.1, 5.2, 5.3, LuaJIT): read where the code tests them
    /// (`math.pow or ...`, `if table.getn then`), they are portable code, not typos.
    /// Whether `global.field` may be set: a writable field, or a field of one (`package.loaded.x
    /// = v`, `package.preload["x"] = f`: luacheck leaves their fields open).
    static func isWritable(_ global: String, _ field: String) -> Bool {
        writable[global]?.contains(String(field.prefix { $0 != "." })) == true
    }

    static let otherVersions: [String: Set<String>] = [
        "table": ["getn", "setn", "maxn", "foreach", "foreachi", "new", "clear"],
        "math": ["pow", "ldexp", "frexp", "mod", "log10", "cosh", "sinh", "tanh", "atan2"],
        "string": ["gfind"],
        "package": ["loaders", "seeall"],
        "debug": ["getfenv", "setfenv"],
        "os": [],
    ]
}
