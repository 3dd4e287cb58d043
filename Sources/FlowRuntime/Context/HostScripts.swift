import FlowLua

/// The parts of a context written in Lua: they only arrange tables and calls, which Lua does
/// more simply than the C API would, and run once, in protected mode, when a context starts.
/// Each is compiled once per process, when a context first needs it; a context loads its
/// bytecode (`LuaPrecompiledChunk`), which costs a small part of compiling the text again.
enum HostScripts {
    /// The host API. Arguments: `fetch(name, type) -> content | nil, message`, `notifyHost(...)`.
    /// Returns getResource, addMessageHandler, removeMessageHandler, postMessage, redeliver.
    static let hostAPI = LuaPrecompiledChunk(
        """
        local fetch, notifyHost = ...
        local type, pairs, ipairs, error, pcall, setmetatable, tostring =
          type, pairs, ipairs, error, pcall, setmetatable, tostring
        local unpack, concat, remove = table.unpack, table.concat, table.remove

        -- object -> { [key] = { name, type } }; weak keys, so an association never keeps its object alive
        local associations = setmetatable({}, { __mode = "k" })
        local handlers = {}

        local function argument(value, position, fname, expected)
          if type(value) ~= expected then
            error("bad argument #" .. position .. " to '" .. fname .. "' (" .. expected ..
              " expected, got " .. type(value) .. ")", 3)
          end
        end

        local function getResource(name, kind, object, key)
          argument(name, 1, "getResource", "string")
          if kind == nil then kind = "" else argument(kind, 2, "getResource", "string") end
          local content, problem = fetch(name, kind)
          if content == nil then error(problem, 2) end
          if object ~= nil then
            if key == nil then error("bad argument #4 to 'getResource' (a key is needed with an object)", 2) end
            local fields = associations[object]
            if fields == nil then fields = {}; associations[object] = fields end
            fields[key] = { name, kind }
            object[key] = content
          end
          return content
        end

        local function redeliver(name, kind, content)
          local targets = {}
          for object, fields in pairs(associations) do
            for key, resource in pairs(fields) do
              if resource[1] == name and resource[2] == kind then targets[#targets + 1] = { object, key } end
            end
          end
          local failures = {}
          for _, target in ipairs(targets) do
            local ok, problem = pcall(function() target[1][target[2]] = content end)
            if not ok then failures[#failures + 1] = tostring(problem) end
          end
          if #failures > 0 then error(concat(failures, "\\n"), 0) end
          return #targets
        end

        local function addMessageHandler(message, handler, method)
          argument(message, 1, "addMessageHandler", "string")
          if method ~= nil then
            argument(method, 3, "addMessageHandler", "string")
          else
            argument(handler, 2, "addMessageHandler", "function")
          end
          local list = handlers[message]
          if list == nil then list = {}; handlers[message] = list end
          list[#list + 1] = { handler, method }
        end

        local function removeMessageHandler(message, handler, method)
          local list = handlers[message]
          if list == nil then return end
          for i = #list, 1, -1 do
            if list[i][1] == handler and (method == nil or list[i][2] == method) then remove(list, i) end
          end
        end

        local function postMessage(message, ...)
          argument(message, 1, "postMessage", "string")
          local list = handlers[message]
          if list ~= nil then
            -- handlers added while this message is delivered wait for the next one
            for _, entry in ipairs({ unpack(list) }) do
              local target, method = entry[1], entry[2]
              if method ~= nil then target[method](target, ...) else target(...) end
            end
          end
          notifyHost(message, ...)
        end

        return getResource, addMessageHandler, removeMessageHandler, postMessage, redeliver
        """, rawChunkName: "=flowpkg:host")

    /// `loadfile` and `dofile` that load a packaged script by its relative path (as LÖVE's
    /// `love.filesystem.load` loads from the game), and behave as stock Lua's for every other
    /// path. Arguments: `fetch(path, running) -> code, chunkName | nil` (`running` for `dofile`,
    /// which a live change repeats), stock `loadfile`, stock `dofile`.
    static let scripts = LuaPrecompiledChunk(
        """
        local fetch, loadfile, dofile = ...
        local load, error, select, type, sub, find = load, error, select, type, string.sub, string.find
        local function packaged(path, running)
          if type(path) ~= "string" or sub(path, 1, 1) == "/" then return nil end
          while sub(path, 1, 2) == "./" do path = sub(path, 3) end
          return fetch(path, running)
        end
        _G.loadfile = function(filename, mode, ...)
          local code, chunkName = packaged(filename)
          if code == nil then return loadfile(filename, mode, ...) end
          -- a packaged script is text, as modules are: never a binary chunk
          mode = (mode == nil or find(mode, "t", 1, true)) and "t" or mode
          -- an explicit nil environment differs from none, so pass it on only when given
          if select("#", ...) > 0 then return load(code, "@" .. chunkName, mode, (...)) end
          return load(code, "@" .. chunkName, mode)
        end
        _G.dofile = function(filename)
          local code, chunkName = packaged(filename, true)
          if code == nil then return dofile(filename) end
          local chunk, problem = load(code, "@" .. chunkName, "t")
          if chunk == nil then error(problem, 0) end
          return chunk()
        end
        """, rawChunkName: "=flowpkg:scripts")

    /// A last searcher that walks `package.path` as stock Lua's file searcher does, for a
    /// program that adds its own folder to it (Penlight's `app.require_here`): a file the
    /// templates name inside a source's module folder loads that module's code, named as
    /// stock Lua names the file; no other file is read. With `package.path` empty (as it starts)
    /// it adds nothing, not even to the "module not found" message. Argument:
    /// `fetch(filename) -> code | nil`.
    static let pathSearcher = LuaPrecompiledChunk(
        """
        local fetch = ...
        local package, load, error, type, concat = package, load, error, type, table.concat
        local gsub, gmatch = string.gsub, string.gmatch
        local searchers = package.searchers
        searchers[#searchers + 1] = function(name)
          local path = package.path
          if type(path) ~= "string" or path == "" then return nil end
          local file = (gsub(name, "%.", "/"))
          local tried = {}
          for template in gmatch(path, "[^;]+") do
            local filename = (gsub(template, "%?", function() return file end))
            local code = fetch(filename)
            if code ~= nil then
              local chunk, problem = load(code, "@" .. filename, "t")
              if chunk == nil then
                error("error loading module '" .. name .. "' from file '" .. filename .. "':\\n\\t" .. problem, 0)
              end
              return chunk, filename
            end
            tried[#tried + 1] = "no file '" .. filename .. "'"
          end
          return concat(tried, "\\n\\t")
        end
        """, rawChunkName: "=flowpkg:path")

    /// A `print` that hands each line to the host. Argument: `write(line)`.
    static let print = LuaPrecompiledChunk(
        """
        local write = ...
        local select, tostring, concat = select, tostring, table.concat
        return function(...)
          local parts = {}
          for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
          write(concat(parts, "\\t") .. "\\n")
        end
        """, rawChunkName: "=flowpkg:print")

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
