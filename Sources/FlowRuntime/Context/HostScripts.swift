import FlowLua

/// The parts of a context's set-up still written in Lua, run only when its options ask for
/// them (a sandbox, declared external modules): they run once, in protected mode, when such a
/// context starts. Each is compiled once per process, when a context first needs it; a context
/// loads its bytecode (`LuaPrecompiledChunk`), which costs a small part of compiling the text
/// again. What every context installs (the host API, `loadfile`/`dofile`, `print`) is C instead
/// (`LuaStack.installHostAPI` and the ones beside it), and its searcher Swift (`ContextCore+Search`).
enum HostScripts {
    /// Applies an allow-list. Arguments: `allowed` (a set of names), `binary` (bool).
    static let sandbox = LuaPrecompiledChunk(
        """
        local allowed, binary = ...
        -- everything this script uses is captured first: the loop below removes globals
        local G, loaded, pairs, ipairs, type, select = _G, package.loaded, pairs, ipairs, type, select
        local strings = getmetatable("")
        local fields = {}
        for entry in pairs(allowed) do
          local library, field = entry:match("^([^.]+)%.(.+)$")
          if library then
            fields[library] = fields[library] or {}
            fields[library][field] = true
          end
        end
        local names = {}
        for name in pairs(G) do names[#names + 1] = name end
        for _, name in ipairs(names) do
          local value = G[name]
          if not allowed[name] then
            local replacement = nil
            if fields[name] and type(value) == "table" then
              replacement = {}
              for field in pairs(fields[name]) do replacement[field] = value[field] end
            end
            G[name] = replacement
            if loaded[name] == value then loaded[name] = replacement end
          end
        end
        -- ("x"):rep(9) reaches the string library through the strings' metatable: the same list applies
        strings.__index = G.string or {}
        if not binary and G.load ~= nil then
          local load = G.load
          G.load = function(chunk, name, mode, ...)
            -- an explicit nil environment differs from none, so pass it on only when given
            if select("#", ...) > 0 then return load(chunk, name, "t", (...)) end
            return load(chunk, name, "t")
          end
        end
        """, rawChunkName: "=flowpkg:sandbox")

    /// Lets `require` load the declared external C modules from the C path, as stock Lua's
    /// C searchers do, and nothing else. Arguments: the C searcher, the all-in-one C
    /// searcher, the declared names (`name` or `Prefix.*`), the C path, whether sandboxed.
    static let externalModules = LuaPrecompiledChunk(
        """
        local csearch, croot, declared, cpath, sandboxed = ...
        local package, ipairs, type, sub, gsub, find = package, ipairs, type, string.sub, string.gsub, string.find
        local function isDeclared(name)
          for _, entry in ipairs(declared) do
            if find(sub(entry, 1, -3), "*", 1, true) or (find(entry, "*", 1, true) and sub(entry, -2) ~= ".*") then
              -- a glob: `*` stands for any run of characters
              local pattern = "^" .. gsub(gsub(entry, "[%^%$%(%)%%%.%[%]%+%-%?]", "%%%0"), "%*", ".*") .. "$"
              if find(name, pattern) then return true end
            elseif sub(entry, -2) == ".*" then
              local prefix = sub(entry, 1, -3)
              if name == prefix or sub(name, 1, #prefix + 1) == prefix .. "." then return true end
            elseif name == entry then
              return true
            end
          end
          return false
        end
        if not sandboxed then package.cpath = cpath end
        local searchers = package.searchers
        searchers[#searchers + 1] = function(name)
          if not isDeclared(name) then return nil end
          if sandboxed then
            return "C module '" .. name .. "' is declared in externalModules, but C modules are not loaded in the sandbox"
          end
          local loader, extra = csearch(name)
          if type(loader) == "function" then return loader, extra end
          local rootLoader, rootExtra = croot(name)
          if type(rootLoader) == "function" then return rootLoader, rootExtra end
          local message = type(loader) == "string" and loader or ""
          if type(rootLoader) == "string" and rootLoader ~= "" then message = message .. "\\n\\t" .. rootLoader end
          return message
        end
        """, rawChunkName: "=flowpkg:externalModules")
}
