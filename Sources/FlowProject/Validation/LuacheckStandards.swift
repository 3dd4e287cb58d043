/// The global names of luacheck 1.1's built-in stds (`std = "lua51"`, `"min"`, `"max+busted"`),
/// top-level names only (the fields of library tables are `StandardLibraryFields`'), as
/// luacheck's documentation lists them.
enum LuacheckStandards {
    static let lua54: Set<String> = [
        "_ENV", "_G", "_VERSION", "arg", "assert", "collectgarbage", "coroutine", "debug", "dofile", "error",
        "getmetatable", "io", "ipairs", "load", "loadfile", "math", "next", "os", "package", "pairs", "pcall", "print",
        "rawequal", "rawget", "rawlen", "rawset", "require", "select", "setmetatable", "string", "table", "tonumber",
        "tostring", "type", "utf8", "warn", "xpcall",
    ]

    /// Globals of every Lua version (luacheck's `min`): Lua 5.4's less `_ENV`, `rawlen`, `utf8`, `warn`.
    static let min: Set<String> = lua54.subtracting(["_ENV", "rawlen", "utf8", "warn"])

    static let lua51: Set<String> = min.union([
        "getfenv", "loadstring", "module", "newproxy", "setfenv", "unpack",
    ])

    static let busted: Set<String> = [
        "describe", "it", "context", "spec", "test", "setup", "teardown", "before_each", "after_each",
        "lazy_setup", "lazy_teardown", "strict_setup", "strict_teardown", "insulate", "expose", "pending",
        "finally", "assert", "spy", "stub", "mock", "randomize", "file",
    ]

    /// Each built-in std by name.
    static let sets: [String: Set<String>] = [
        "lua51": lua51, "lua51c": lua51.union(["gcinfo"]),
        "lua52": min.union(["_ENV", "bit32", "rawlen"]),
        "lua52c": min.union(["_ENV", "bit32", "rawlen", "loadstring", "module", "unpack"]),
        "lua53": min.union(["_ENV", "rawlen", "utf8"]), "lua53c": min.union(["_ENV", "bit32", "rawlen", "utf8"]),
        "lua54": lua54, "lua54c": lua54,
        "luajit": lua51.union(["bit", "gcinfo", "jit"]),
        "ngx_lua": lua51.union(["bit", "gcinfo", "jit", "ndk", "ngx", "thread"]),
        "min": min, "max": lua54.union(lua51).union(["bit", "bit32", "gcinfo", "jit"]), "none": [],
        "busted": busted, "love": ["love"],
        "rockspec": [
            "rockspec_format", "package", "version", "description", "source", "dependencies",
            "supported_platforms", "external_dependencies", "build", "test", "test_dependencies", "deploy", "hooks",
        ],
        "luacheckrc": [
            "global", "unused", "redefined", "unused_args", "unused_secondaries", "self", "compat", "allow_defined",
            "allow_defined_top", "module", "globals", "read_globals", "new_globals", "new_read_globals",
            "not_globals", "ignore", "enable", "only", "std", "max_line_length", "max_code_line_length",
            "max_string_line_length", "max_comment_line_length", "max_cyclomatic_complexity", "quiet", "color",
            "codes", "ranges", "formatter", "cache", "jobs", "files", "stds", "exclude_files", "include_files",
            "operators",
        ],
        "ldoc": [
            "file", "project", "title", "description", "format", "dir", "readme", "topics", "examples", "style",
            "template", "kind_names", "new_type", "alias", "add_language_extension", "custom_tags", "sort",
        ],
        "nvim": ["vim"],
    ]
}
