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
    /// A `.luacheckrc` that is a symbolic link must lead inside the project's repository (or
    /// elsewhere with `allowsOutsideLinks`), never to `/proc`, `/sys`, `/dev` or a special file.
    static func globals(inProject root: URL, allowsOutsideLinks: Bool = false)
        -> (names: [String], diagnostics: [Diagnostic])
    {
        let file = root.appendingPathComponent(fileName)
        var info = stat()
        guard lstat(file.path, &info) == 0 else { return ([], []) }
        if (info.st_mode & S_IFMT) != S_IFREG {
            let links = LinkRule(
                projectRoot: FileTree.realPath(root.path) ?? root.path, allowsOutside: allowsOutsideLinks)
            // A broken link is no configuration, as a missing file is.
            guard let target = FileTree.realPath(file.path) else { return ([], []) }
            if let refusal = links.refusal(of: target) {
                let (message, hint) = links.explain(refusal, link: fileName, what: "the luacheck configuration")
                return (
                    [],
                    [
                        Diagnostic(
                            severity: .error,
                            code: refusal.isAllowedByOptIn ? .linkOutsideRepository : .linkRefused,
                            message: message + ", so its globals are not used", file: file.path, hint: hint)
                    ]
                )
            }
        }
        do {
            // The size first: a 400 MB file of spaces is refused unread.
            guard stat(file.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return ([], []) }
            guard Int(info.st_size) <= maximumSize else {
                throw LuaError(
                    kind: .runtime,
                    message:
                        "it is larger than \(maximumSize >> 20) MB (\(info.st_size) bytes); a configuration is a few lines"
                )
            }
            guard let data = FileManager.default.contents(atPath: file.path) else { return ([], []) }
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

    /// Larger files are not evaluated: a configuration is a few lines (flowpkg.json's own cap is 4 MB).
    static let maximumSize = 1 << 20

    /// What an evaluation may use: past any of these it stops, with FP106, and validation goes on.
    static let limits = LuaLimits(memory: 64 << 20, instructions: 10_000_000, seconds: 5)

    /// Work the C functions that a hook cannot interrupt (`string.rep`, `table.move`, pattern
    /// matching) may do in one evaluation, counted as the driver's wrappers estimate it.
    static let workLimit = 100_000_000

    /// Runs the configuration's text and returns the global names it declares.
    /// `measured`, when given, sees the state once the evaluation ended (its peak memory and
    /// instruction count), before it is closed.
    static func evaluate(
        _ source: [UInt8], chunkName: String, limits: LuaLimits = limits, measured: ((LuaState) -> Void)? = nil
    ) throws -> [String] {
        var names: [String] = []
        for text in try entries(source, chunkName: chunkName, limits: limits, measured: measured) {
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

    /// Everything the driver lists for a configuration, within the same bounds: names, `std:`
    /// sets and the lint options (`opt:`, `optf:`) `LintConfiguration` reads.
    static func entries(
        _ source: [UInt8], chunkName: String, limits: LuaLimits = limits, measured: ((LuaState) -> Void)? = nil
    ) throws -> [String] {
        guard source.count <= maximumSize else {
            throw LuaError(
                kind: .runtime,
                message:
                    "it is larger than \(maximumSize >> 20) MB (\(source.count) bytes); a configuration is a few lines"
            )
        }
        if let chain = source.withUnsafeBytes({ ChainScanner.longChain(in: $0) }) {
            throw LuaError(kind: .syntax, message: "line \(chain.line): \(chain.message)")
        }
        let state = try LuaState(limits: limits)
        defer {
            measured?(state)
            state.close()
        }
        let results: [LuaValue]
        do {
            results = try state.run(
                driver, chunkName: "flowpkg:luacheckrc",
                arguments: [
                    .string(String(decoding: source, as: UTF8.self)), .string(chunkName), .integer(Int64(workLimit)),
                ])
        } catch {
            if let bound = state.exceededLimit { throw exceeded(bound, limits: limits) }
            throw error
        }
        if let bound = state.exceededLimit { throw exceeded(bound, limits: limits) }
        let values: [LuaValue]
        switch results.first {
        case .array(let list)?: values = list
        case .table(let fields)? where fields.isEmpty: values = []
        default: throw LuaError(kind: .runtime, message: results.dropFirst().first?.stringValue ?? "no result")
        }
        return values.compactMap(\.stringValue)
    }

    /// The configuration's bytes, when `.luacheckrc` may be read at all: a regular file, or a
    /// link `globals(inProject:allowsOutsideLinks:)` accepts, within `maximumSize`. That
    /// function reports why one may not; this one only declines.
    static func contents(inProject root: URL, allowsOutsideLinks: Bool) -> [UInt8]? {
        let file = root.appendingPathComponent(fileName)
        var info = stat()
        guard lstat(file.path, &info) == 0 else { return nil }
        if (info.st_mode & S_IFMT) != S_IFREG {
            let links = LinkRule(
                projectRoot: FileTree.realPath(root.path) ?? root.path, allowsOutside: allowsOutsideLinks)
            guard let target = FileTree.realPath(file.path), links.refusal(of: target) == nil else { return nil }
        }
        guard stat(file.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) <= maximumSize,
            let data = FileManager.default.contents(atPath: file.path)
        else { return nil }
        return Array(data)
    }

    private static func exceeded(_ bound: LuaLimits.Bound, limits: LuaLimits) -> LuaError {
        let message: String
        switch bound {
        case .memory: message = "it needs more than \(limits.memory >> 20) MB of memory"
        case .instructions: message = "it runs too long (over \(limits.instructions / 1_000_000) million instructions)"
        case .time: message = "it runs too long (over \(Int(limits.seconds)) seconds)"
        }
        return LuaError(kind: .runtime, message: message)
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
        local source, name, worklimit = ...
        -- One C call cannot be interrupted by the hook: the ones whose work is not bounded by
        -- the memory they allocate are wrapped here, and charged what they may cost.
        local rep, move, find, match, gmatch, gsub, byte = string.rep, table.move, string.find,
          string.match, string.gmatch, string.gsub, string.byte
        local pack, unpack, tointeger = table.pack, table.unpack, math.tointeger
        local work = 0
        local function charge(cost, what)
          work = work + cost
          if work > worklimit then
            work = math.huge
            error(what .. " does too much work for a configuration (past " .. worklimit .. " steps)", 3)
          end
        end
        local function count(value)
          local number = tonumber(value)
          if number == nil or number ~= number then return 0 end
          return number
        end
        -- After `[` at i, the index past the set's `]`.
        local function skipset(p, i)
          i = i + 1
          if byte(p, i) == 94 then i = i + 1 end
          i = i + 1
          while i <= #p and byte(p, i) ~= 93 do
            if byte(p, i) == 37 then i = i + 1 end
            i = i + 1
          end
          return i + 1
        end
        -- How many items of a pattern can try every length of the subject: quantified
        -- classes and balances. Each multiplies the worst case by the subject's length.
        local function repeats(p)
          local total, i, n = 0, 1, #p
          while i <= n do
            local c = byte(p, i)
            if c == 37 then
              local d = byte(p, i + 1)
              if d == 98 then total = total + 1; i = i + 4
              elseif d == 102 then i = skipset(p, i + 2)
              else i = i + 2 end
            elseif c == 91 then i = skipset(p, i)
            else i = i + 1 end
            local q = byte(p, i)
            if q == 42 or q == 43 or q == 45 or q == 63 then total = total + 1; i = i + 1 end
          end
          return total
        end
        local function guard(what, original, plainindex)
          return function(s, p, ...)
            if (type(s) == "string" or type(s) == "number") and (type(p) == "string" or type(p) == "number") then
              local subject, pattern = tostring(s), tostring(p)
              local q = (plainindex and select(plainindex, ...)) and 0 or repeats(pattern)
              charge((#subject + 1.0) ^ (q + 1) * (#pattern + 1), what)
            end
            return original(s, p, ...)
          end
        end
        string.rep = function(s, n, sep)
          charge(count(n), "string.rep")
          return rep(s, n, sep)
        end
        table.move = function(a1, f, e, t, a2)
          charge(count(e) - count(f) + 1, "table.move")
          return move(a1, f, e, t, a2)
        end
        string.find = guard("string.find", find, 2)
        string.match = guard("string.match", match)
        string.gmatch = guard("string.gmatch", gmatch)
        string.gsub = guard("string.gsub", gsub)
        local env = {}
        for _, key in ipairs({ "assert", "error", "ipairs", "next", "pairs", "pcall", "rawequal", "rawget",
            "rawlen", "rawset", "select", "tonumber", "tostring", "type", "_VERSION" }) do
          env[key] = _G[key]
        end
        -- The message handler runs after the error unwound, under the budget: Lua would run it
        -- where the error was raised, which for the budget's own error is inside the hook, unhooked.
        env.xpcall = function(f, handler, ...)
          local results = pack(pcall(f, ...))
          if results[1] then return unpack(results, 1, results.n) end
          local ok, value = pcall(handler, results[2])
          return false, value
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
        -- past a bound, every instruction fails, so no pcall in the file can go on looping
        budget_start()
        local ok, failure = pcall(chunk)
        if budget_stop() then return nil, "past its budget" end
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
          for part in gmatch(value, "[^+%s]+") do
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

/// The globals a folder's `.luacheckrc` declares, for `flowpkg init` (validate reads the file itself).
public enum LuacheckGlobals {
    /// The declared names, empty when there is no `.luacheckrc` or it cannot be evaluated.
    public static func names(inFolder folder: URL) -> [String] {
        let standard = Set(LuacheckConfig.standardSets.values.joined())
        return LuacheckConfig.globals(inProject: folder).names.filter { !standard.contains($0) }
    }
}
