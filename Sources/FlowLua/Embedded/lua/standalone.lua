-- lua.c's main, in Lua: the option loop, `arg`, LUA_INIT, the script and its errors, for
-- `flowpkg run FILE.lua` (LuaStandalone.swift). It runs in a coroutine of its own: each protected
-- call (lua.c's docall) is yielded to the host, which runs it on the main thread on a C frame, so
-- a traceback shows the script's frames and then `[C]: in ?`, as lua5.4's does, and none of these.
local argv, copyright, sandbox, trace, loaded, uncaught = ...
local progname = argv[1] or "lua"
local stderr, stdout = io.stderr, io.stdout
local yield, traceback, getmetatable, rawget = coroutine.yield, debug.traceback, debug.getmetatable, rawget
local type, tostring, mathtype = type, tostring, math.type
local function message(text) stderr:write(progname, ": ", tostring(text), "\n"); stderr:flush() end
-- lua.c's msghandler: a string (or number) gets a traceback; an object with __tostring is shown
-- by it, alone; any other object is named by its type.
local function handler(m)
  if uncaught then uncaught(m) end
  if mathtype(m) then
    m = tostring(m)
  elseif type(m) ~= "string" then
    local meta = getmetatable(m)
    local show = meta and rawget(meta, "__tostring")
    if show ~= nil then
      local shown = show(m)
      if type(shown) == "string" then return shown end
    end
    m = "(error object is a " .. type(m) .. " value)"
  end
  return traceback(m, 2)
end
local function report(ok, problem) if not ok then message(problem) end return ok end
local function docall(chunk, ...) return yield(handler, chunk, ...) end
local function dochunk(chunk, problem)
  if chunk == nil then return report(false, problem) end
  return report(docall(chunk))
end
local usage = "usage: " .. progname .. " [options] [script [args]]\n" ..
  "Available options are:\n" ..
  "  -e stat   execute string 'stat'\n" ..
  "  -i        enter interactive mode after executing 'script'\n" ..
  "  -l mod    require library 'mod' into global 'mod'\n" ..
  "  -v        show version information\n" ..
  "  -E        ignore environment variables\n" ..
  "  -W        turn warnings on\n" ..
  "  --        stop handling options\n" ..
  "  -         stop handling options and execute stdin"
-- collectargs: argv[1] is C's argv[0]
local argc = #argv
local script, hasE, hasV, noEnv = argc + 1, false, false, false
local i = 2
while i <= argc do
  local a = argv[i]
  if a:sub(1, 1) ~= "-" then script = i; break end
  local option = a:sub(2, 2)
  if a == "--" then script = i + 1; break
  elseif a == "-" then script = i; break
  elseif a == "-E" then noEnv = true
  elseif a == "-W" then
  elseif a == "-v" then hasV = true
  elseif a == "-i" then
    message("interactive mode (-i) is not supported; run the script without it")
    return 1
  elseif option == "e" or option == "l" then
    if option == "e" then hasE = true end
    if #a == 2 then
      i = i + 1
      if i > argc or argv[i]:sub(1, 1) == "-" then
        stderr:write(progname, ": '", a, "' needs argument\n", usage, "\n")
        return 1
      end
    end
  else
    stderr:write(progname, ": unrecognized option '", a, "'\n", usage, "\n")
    return 1
  end
  i = i + 1
end
-- createargtable
local base = script <= argc and script or 1
local arg = {}
for index = 1, argc do arg[index - base] = argv[index] end
_G.arg = arg
if hasV then stdout:write(copyright, "\n"); stdout:flush() end
if noEnv then
  debug.getregistry().LUA_NOENV = true
else
  local init, name = os.getenv("LUA_INIT_5_4"), "=LUA_INIT_5_4"
  if init == nil then init, name = os.getenv("LUA_INIT"), "=LUA_INIT" end
  if init ~= nil then
    local ok
    if init:sub(1, 1) == "@" then ok = dochunk(loadfile(init:sub(2))) else ok = dochunk(load(init, name)) end
    if not ok then return 1 end
  end
end
-- runargs
i = 2
while i < script and i <= argc do
  local a = argv[i]
  local option = a:sub(2, 2)
  if option == "e" or option == "l" then
    local extra = a:sub(3)
    if extra == "" then i = i + 1; extra = argv[i] end
    if option == "e" then
      if not dochunk(load(extra, "=(command line)")) then return 1 end
    else
      local ok, value = docall(require, extra)
      if not report(ok, value) then return 1 end
      _G[extra] = value
    end
  elseif a == "-W" then
    warn("@on")
  end
  i = i + 1
end
if script <= argc then
  local name = argv[script]
  if name == "-" and argv[script - 1] ~= "--" then name = nil end
  local chunk, problem = loadfile(name)
  if chunk == nil then message(problem); return 1 end
  if loaded and name then
    -- A debugger hears of each file require loads, then of the script (and attaches).
    local searcher = package.searchers[2]
    package.searchers[2] = function(module)
      local loader, extra = searcher(module)
      if type(loader) == "function" and type(extra) == "string" then loaded(extra, module) end
      return loader, extra
    end
    loaded(name)
  end
  if trace then
    for index, searcher in ipairs(package.searchers) do
      package.searchers[index] = function(module)
        local loader, extra = searcher(module)
        if type(loader) == "function" then
          stderr:write("trace: module ", module, " <- ", tostring(extra or "package.preload"), "\n")
        end
        return loader, extra
      end
    end
  end
  if sandbox then
    local rawload, select, time, clock, date = load, select, os.time, os.clock, os.date
    _G.io, _G.debug, _G.dofile, _G.loadfile, package.loadlib = nil, nil, nil, nil, nil
    package.searchers[3], package.searchers[4] = nil, nil
    _G.os = { time = time, clock = clock, date = date }
    _G.load = function(chunk, chunkname, mode, ...)
      if select("#", ...) > 0 then return rawload(chunk, chunkname, "t", ...) end
      return rawload(chunk, chunkname, "t")
    end
  end
  local ok, failure = docall(chunk, table.unpack(arg, 1, argc - script))
  if not ok then message(failure); return 1 end
elseif not hasE and not hasV then
  local chunk, problem = loadfile(nil)
  if chunk == nil then message(problem); return 1 end
  if not report(docall(chunk)) then return 1 end
end
stdout:flush()
return 0
