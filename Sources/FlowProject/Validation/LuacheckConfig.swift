import FlowDiagnostics
import FlowLua
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The globals a project's `.luacheckrc` declares, so a luacheck user's configuration carries
/// over: `globals`, `read_globals`, `new_globals`, `new_read_globals` and `std` (a named set
/// such as `lua54+busted`, a custom one from `stds`, or a table), at the top level and in every
/// `files[...]` section.
///
/// The file is Lua, and luacheck runs it; so does this, as luacheck does (its assignments are
/// the options), in a Lua state of its own with only the pure parts of the standard library
/// (no `io`, `os`, `require`, `load`, `dofile`, `debug`) and an instruction budget, so a
/// configuration can compute its lists but can neither read, write nor hang.
enum LuacheckConfig {
    static let fileName = ".luacheckrc"

    /// The names `.luacheckrc` in `root` declares, and a warning when it cannot be evaluated
    /// (its names are then not used). None when there is no such file.
    static func globals(inProject root: URL) -> (names: [String], diagnostics: [Diagnostic]) {
        let file = root.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: file.path) else { return ([], []) }
        do {
            return (try evaluate(Array(data), chunkName: fileName), [])
        } catch {
            return (
                [],
                [
                    Diagnostic(
                        severity: .warning, code: .invalidValue,
                        message: "\(fileName) could not be evaluated, so its globals are not used: \(error)",
                        file: file.path, hint: "luacheck evaluates it as Lua: fix the error it names")
                ]
            )
        }
    }

    /// Runs the configuration's text and returns the global names it declares.
    static func evaluate(_ source: [UInt8], chunkName: String) throws -> [String] {
        let state = try LuaState(openLibraries: true)
        defer { state.close() }
        let results = try state.run(
            driver, chunkName: "flowpkg:luacheckrc",
            arguments: [
                .string(String(decoding: source, as: UTF8.self)), .string(chunkName),
            ])
        let values: [LuaValue]
        switch results.first {
        case .array(let list)?: values = list
        case .table(let fields)? where fields.isEmpty: values = []
        default: throw LuaError(kind: .runtime, message: results.dropFirst().first?.stringValue ?? "no result")
        }
        var names: [String] = []
        for value in values {
            guard let text = value.stringValue else { continue }
            // Lint options are read by `LintConfiguration`, not globals.
            if text.hasPrefix("opt:") || text.hasPrefix("optf:") { continue }
            if text.hasPrefix("std:") {
                names += standardSets[String(text.dropFirst(4))] ?? []
            } else {
                names.append(text)
            }
        }
        return names
    }

    /// Global names of luacheck's built-in sets, beyond Lua 5.4's own (which every project has).
    static let standardSets: [String: [String]] = {
        let lua51 = ["unpack", "setfenv", "getfenv", "module", "loadstring", "gcinfo", "newproxy"]
        return [
            "lua51": lua51, "lua51c": lua51, "luajit": lua51 + ["jit", "bit"],
            "ngx_lua": lua51 + ["jit", "bit", "ngx", "ndk"],
            "lua52": ["bit32"], "lua52c": ["bit32", "unpack", "loadstring", "module"], "lua53c": ["bit32"],
            "max": lua51 + ["jit", "bit", "bit32"],
            "busted": [
                "describe", "it", "context", "spec", "test", "setup", "teardown", "before_each", "after_each",
                "lazy_setup", "lazy_teardown", "strict_setup", "strict_teardown", "insulate", "expose", "pending",
                "finally", "assert", "spy", "stub", "mock",
            ],
            "love": ["love"],
            "rockspec": [
                "rockspec_format", "package", "version", "description", "source", "dependencies",
                "supported_platforms", "external_dependencies", "build", "test", "test_dependencies", "deploy",
                "hooks",
            ],
        ]
    }()

    /// Evaluates the configuration in a fresh environment and lists what it declares: plain
    /// names, and `std:NAME` for each built-in set it names.
    static let driver = """
        local source, name = ...
        local env = {}
        for _, key in ipairs({ "assert", "error", "ipairs", "next", "pairs", "pcall", "rawequal", "rawget",
            "rawlen", "rawset", "select", "tonumber", "tostring", "type",
            "xpcall", "_VERSION" }) do
          env[key] = _G[key]
        end
        for _, library in ipairs({ "string", "table", "math", "utf8" }) do
          local copy = {}
          for key, value in pairs(_G[library]) do copy[key] = value end
          env[library] = copy
        end
        env.unpack = table.unpack
        env._G = env
        -- as luacheck gives them: `files["spec"].std = "+busted"` makes the section it names
        env.files = setmetatable({}, { __index = function(files, key) local t = {}; rawset(files, key, t); return t end })
        env.stds = {}
        local chunk, problem = load(source, "@" .. name, "t", env)
        if chunk == nil then return nil, problem end
        -- past the budget, every instruction fails, so no pcall in the file can go on looping
        local function budget()
          debug.sethook(budget, "", 1)
          error("it runs too long (over 10 million instructions)")
        end
        debug.sethook(budget, "", 10000000)
        local ok, failure = pcall(chunk)
        debug.sethook()
        if not ok then return nil, tostring(failure) end
        local names, seen = {}, {}
        local function add(text)
          if type(text) == "string" and not seen[text] then seen[text] = true; names[#names + 1] = text end
        end
        local function list(value)
          if type(value) == "string" then add(value) end
          if type(value) ~= "table" then return end
          for key, entry in pairs(value) do
            if type(key) == "number" then add(entry) else add(key) end
          end
        end
        local stds = type(env.stds) == "table" and env.stds or {}
        local function standard(value)
          if type(value) == "table" then list(value.globals); list(value.read_globals); return end
          if type(value) ~= "string" then return end
          for part in value:gmatch("[^+%s]+") do
            if type(stds[part]) == "table" then standard(stds[part]) else add("std:" .. part) end
          end
        end
        local function section(options)
          if type(options) ~= "table" then return end
          for _, key in ipairs({ "globals", "read_globals", "new_globals", "new_read_globals" }) do list(options[key]) end
          standard(options.std)
        end
        section(env)
        if type(env.files) == "table" then
          for _, options in pairs(env.files) do section(options) end
        end
        -- The lint options, as `opt:key=value` (`optf:path<TAB>key=value` for a files section).
        local function options(prefix, opts)
          if type(opts) ~= "table" then return end
          for _, key in ipairs({ "ignore", "enable", "only" }) do
            local value = opts[key]
            if type(value) == "string" then value = { value } end
            if type(value) == "table" then
              for _, pattern in ipairs(value) do
                if type(pattern) == "string" then add(prefix .. key .. "=" .. pattern) end
              end
            end
          end
          for _, key in ipairs({ "unused", "unused_args", "unused_secondaries", "self", "redefined",
              "allow_defined", "allow_defined_top", "max_line_length", "max_code_line_length",
              "max_string_line_length", "max_comment_line_length" }) do
            local value = opts[key]
            if type(value) == "boolean" or type(value) == "number" then add(prefix .. key .. "=" .. tostring(value)) end
          end
          for _, key in ipairs({ "read_globals", "new_read_globals" }) do
            local value = opts[key]
            if type(value) == "table" then
              for k, entry in pairs(value) do
                local name = type(k) == "number" and entry or k
                if type(name) == "string" then add(prefix .. "read_globals=" .. name) end
              end
            end
          end
        end
        options("opt:", env)
        if type(env.files) == "table" then
          for path, opts in pairs(env.files) do
            if type(path) == "string" then options("optf:" .. path .. "\t", opts) end
          end
        end
        table.sort(names)
        return names
        """
}
