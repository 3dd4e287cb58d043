-- flowpkg test's runner: one spec file, in a Lua context of its own, with busted 2's API and
-- its rules for order and outcomes (blocks run when reached, hooks per block, failures only
-- inside `it`). SpecFileRun (Swift) sets _FLOWPKG_TEST to the options and reads the records
-- this chunk returns: { records = {...}, randomseed = N, stopped = WHY|nil, missing = MODULE|nil }.
local options = _FLOWPKG_TEST
_FLOWPKG_TEST = nil

local G = _G
local pairs, ipairs, type, select, tostring, tonumber = pairs, ipairs, type, select, tostring, tonumber
local setmetatable, rawget, rawset, xpcall, pcall, error, next = setmetatable, rawget, rawset, xpcall, pcall, error, next
local package, randomseed, random = package, math.randomseed, math.random
local getinfo, getupvalue, upvaluejoin, setupvalue = debug.getinfo, debug.getupvalue, debug.upvaluejoin, debug.setupvalue
local getmetatableRaw, traceback, sethook = debug.getmetatable, debug.traceback, debug.sethook
local insert, remove, concat, sort = table.insert, table.remove, table.concat, table.sort
local RUNNER = getinfo(1, "S").source
local clock = options.clock

local records = {}
local stopped = nil -- "timeout", "exit" or "failfast": the rest of the file does not run

-- What a raised value means: a failed assertion, a pending test, os.exit, the time limit.
local Failure = { __tostring = function(e) return tostring(e.message) end }
local FailureQuiet = {}
local Pending = { __tostring = function(p) return p.message end }
local Exit = {}
local Timeout = {}

local function outcomeOf(value)
  local mt = getmetatableRaw(value)
  if mt == Failure or mt == FailureQuiet then return "failure" end
  if mt == Pending then return "pending" end
  return "error"
end

local function hasText(value)
  return type(value) == "string" or (getmetatableRaw(value) or {}).__tostring ~= nil
end

-- A short picture of a raised table, for the message (busted prints such values too).
local function picture(value, depth)
  if type(value) ~= "table" then return type(value) == "string" and ("%q"):format(value) or tostring(value) end
  if depth > 2 then return "{...}" end
  local parts = {}
  for k, v in next, value do
    parts[#parts + 1] = "[" .. picture(k, depth + 1) .. "] = " .. picture(v, depth + 1)
    if #parts > 20 then parts[#parts + 1] = "..." break end
  end
  return "{ " .. concat(parts, ", ") .. " }"
end

-- The first frame from `level` up that is the specs' own: not C, not luassert, not this runner.
local function placeFrom(level)
  local info = getinfo(level, "Sl")
  while info and (info.what == "C" or info.source == RUNNER or info.short_src:match("luassert[/\\].*%.lua$")) do
    level = level + 1
    info = getinfo(level, "Sl")
  end
  if not info then return { short_src = options.file, currentline = 0, traceback = "" } end
  local trace = traceback("", level)
  local cut = trace:find("\n%s*%[C]")
  return {
    short_src = info.short_src, currentline = info.currentline, source = info.source, what = info.what,
    traceback = cut and trace:sub(1, cut) or trace,
  }
end

local function messageOf(value, place)
  local text
  if getmetatableRaw(value) == Exit then
    text = "os.exit(" .. tostring(value.code) .. ") called: the rest of this file did not run"
  elseif getmetatableRaw(value) == Timeout then
    text = "timed out after " .. options.timeout .. " s (--timeout): the rest of this file did not run"
  elseif hasText(value) then
    text = tostring(value)
  elseif value ~= nil then
    text = picture(value, 0)
  else
    text = "Nil error"
  end
  if not text:match("^[^\n]-:%d+: .*") then text = place.short_src .. ":" .. place.currentline .. ": " .. text end
  return text
end

-- busted's API, raised the way its outcomes are.
local function fail(message, level)
  local raw = (type(level) ~= "number" or level <= 0) and level
  level = level or 1
  local _, positioned = pcall(error, message, raw or level + 2)
  error(setmetatable({ message = positioned }, hasText(message) and Failure or FailureQuiet), raw or level + 1)
end

local function pendingNow(message)
  error(setmetatable({ message = message }, Pending))
end

-- The tree of blocks. Each element: descriptor, name, run, trace, attributes, parent,
-- children, env, and its hooks by descriptor (before_each = {...}, ...).
local suite = { descriptor = "suite", attributes = {}, children = {}, env = {} }
local current = suite
local stack, saved = {}, {}

local function fullName(element)
  local names = { element.name or element.descriptor }
  local parent = element.parent
  while parent and (parent.name or parent.descriptor) and parent.descriptor ~= "file" do
    insert(names, 1, parent.name or parent.descriptor)
    parent = parent.parent
  end
  return concat(names, " ")
end

-- Globals and loaded modules, kept around an `insulate` block.
local function saveGlobals()
  local globals, loaded = {}, {}
  for k in next, G do globals[k] = rawget(G, k) end
  for k, v in pairs(package.loaded) do loaded[k] = v end
  return { meta = getmetatableRaw(G), globals = globals, loaded = loaded }
end

local function restoreGlobals(state)
  setmetatable(G, state.meta)
  for k in next, G do rawset(G, k, state.globals[k]) end
  for k, v in next, state.globals do
    if rawget(G, k) == nil then rawset(G, k, v) end
  end
  for k in pairs(package.loaded) do package.loaded[k] = state.loaded[k] end
end

-- Assignments to globals in a hook go to the block around it (`levels` up).
local function unwrap(element, levels)
  local target = element
  for _ = 1, levels do
    target = target.parent
    if not target then break end
  end
  element.env = element.env or {}
  setmetatable(element.env, {
    __newindex = function(_, key, value)
      if not target then
        G[key] = value
      else
        target.env = target.env or {}
        target.env[key] = value
      end
    end,
  })
end

local function push(element)
  if element ~= current then
    local mode, state = element.attributes.envmode, false
    if mode == "insulate" then
      state = saveGlobals()
    elseif mode == "unwrap" then
      unwrap(element, 1)
    elseif mode == "expose" then
      unwrap(element, 2)
    end
    insert(saved, state)
  end
  insert(stack, current)
  current = element
end

local function pop()
  local element = current
  current = remove(stack)
  if current ~= element then
    local state = remove(saved)
    if element.attributes.envmode == "expose" then saved[#saved] = saved[#saved] and saveGlobals() end
    if state then restoreGlobals(state) end
  end
end

-- The specs' globals: the running block's, then its parents', then _G.
local specEnv = setmetatable({}, {
  __index = function(_, key)
    local element = current
    while element do
      local env = element.env
      if env then
        local value = env[key]
        if value ~= nil then return value end
      end
      element = element.parent
    end
    return G[key]
  end,
  __newindex = function(_, key, value)
    current.env = current.env or {}
    current.env[key] = value
  end,
})

local function record(status, element, message, place, isError)
  local trace = element.trace or place or {}
  local line = trace.currentline
  insert(records, {
    status = status, name = fullName(element), descriptor = element.descriptor,
    file = trace.short_src or options.file, line = line, message = message,
    traceback = place and place.traceback or nil, failureFile = place and place.short_src or nil,
    failureLine = place and place.currentline or nil, isError = isError or false,
    duration = element.duration,
  })
end

-- Runs `run` as part of `element`: its outcome, recorded as busted publishes it.
local function safe(descriptor, run, element)
  push(element)
  local outcome, message, place = "success", nil, nil
  local ok = xpcall(run, function(raised)
    outcome = outcomeOf(raised)
    place = placeFrom(3)
    message = messageOf(raised, place)
    if getmetatableRaw(raised) == Exit then stopped = stopped or "exit" end
    if getmetatableRaw(raised) == Timeout then stopped = "timeout" end
    return raised
  end)
  if not ok then
    if outcome == "success" then
      outcome = "error"
      place = placeFrom(2)
      message = message or "error in error handling"
    elseif outcome == "failure" and descriptor ~= "it" then
      -- Only a test fails; a failed assertion elsewhere is an error outside the tests.
      outcome = "error"
    end
    if element.descriptor == "it" then
      if outcome == "pending" then
        element.pendingMessage, element.pendingPlace = message, place
      else
        element.problems = element.problems or {}
        insert(element.problems, { outcome = outcome, message = message, place = place })
      end
    elseif outcome ~= "pending" then
      record(outcome, element, message, place, true)
    end
  end
  pop()
  return outcome
end

local function succeeded(outcome) return outcome == "success" end

-- busted's status update: a failure or error stays.
local function update(status, outcome)
  if status == "success" or (status == "pending" and outcome ~= "success") then return outcome end
  return status
end

local descriptors = {
  "describe", "context", "insulate", "expose", "it", "spec", "test", "pending", "before_each", "after_each",
  "lazy_setup", "lazy_teardown", "strict_setup", "strict_teardown", "setup", "teardown",
}

local function reject(name, element)
  element.env[name] = function() error("'" .. name .. "' not supported inside current context block", 2) end
end

local function rejectAll(element)
  reject("randomize", element)
  for _, name in ipairs(descriptors) do reject(name, element) end
end

local function exec(descriptor, element)
  element.env = element.env or {}
  rejectAll(element)
  return safe(descriptor, element.run, element)
end

-- lazy_setup: once per block, its parents' first.
local function execOnce(descriptor, element)
  if element.parent and not execOnce(descriptor, element.parent) then return false end
  local list = element[descriptor]
  if not list then
    list = {}
    element[descriptor] = list
  end
  if list.success ~= nil then return list.success end
  local ok = true
  for _, hook in ipairs(list) do
    if not succeeded(exec(descriptor, hook)) then ok = false end
  end
  list.success = ok
  return ok
end

local function execAll(descriptor, element, propagate)
  if propagate and element.parent then
    local ok, ancestor = execAll(descriptor, element.parent, true)
    if not ok then return ok, ancestor end
  end
  local ok = true
  for _, hook in ipairs(element[descriptor] or {}) do
    if not succeeded(exec(descriptor, hook)) then ok = nil end
  end
  return ok, element
end

local function execAllDown(descriptor, element, propagate)
  local ok = true
  for _, hook in ipairs(element[descriptor] or {}) do
    if not succeeded(exec(descriptor, hook)) then ok = nil end
  end
  if propagate and element.parent and not execAllDown(descriptor, element.parent, true) then ok = nil end
  return ok
end

local function lazyTeardown(element)
  if element.lazy_setup and element.lazy_setup.success ~= nil then
    execAllDown("lazy_teardown", element)
    element.lazy_setup.success = nil
  end
end

local function shuffle(list, seed)
  randomseed(seed)
  for i = #list, 2, -1 do
    local j = random(i)
    list[i], list[j] = list[j], list[i]
  end
end

local executors = {}

local function runChildren(element)
  for _, child in ipairs(element.children) do
    if stopped then break end
    local executor = executors[child.descriptor]
    if executor then safe(child.descriptor, function() executor(child) end, child) end
  end
end

-- describe, insulate, expose and the file: run the body (which registers the children), then
-- the children between the block's setup and teardown.
local function runBlock(element)
  element.env = element.env or {}
  local randomize, seed = options.shuffle, options.seed
  element.env.randomize = function(...)
    randomize = select("#", ...) == 0 or ...
    if randomize then seed = tonumber((...)) or tonumber((select(2, ...))) or seed end
  end
  if succeeded(safe(element.descriptor, element.run, element)) then
    if randomize then
      element.randomseed = seed
      shuffle(element.children, seed)
    end
    if execAll("strict_setup", element) then runChildren(element) end
    lazyTeardown(element)
    execAllDown("strict_teardown", element)
  end
end

executors.file = runBlock
executors.describe = runBlock

local function testEnd(element, status)
  if options.list then
    record("listed", element)
    return
  end
  if status == "success" then
    record("success", element)
  elseif status == "pending" then
    record("pending", element, element.pendingMessage, element.pendingPlace)
  end
  for _, problem in ipairs(element.problems or {}) do
    record(problem.outcome, element, problem.message, problem.place, problem.outcome == "error")
  end
  if status == "failure" or status == "error" then
    if options.failFast then stopped = stopped or "failfast" end
  end
end

executors.it = function(element)
  local parent = element.parent
  if not execOnce("lazy_setup", parent) then return end
  element.env = element.env or {}
  rejectAll(element)
  local finally
  element.env.finally = function(fn) finally = fn end
  element.env.pending = pendingNow
  local pass, ancestor = execAll("before_each", parent, true)
  if pass then
    local start = clock()
    local status = safe("it", element.run, element)
    if finally then
      reject("pending", element)
      status = update(status, safe("finally", finally, element))
    end
    element.duration = clock() - start
    testEnd(element, status)
  end
  execAllDown("after_each", ancestor, true)
end

executors.pending = function(element)
  if options.list then
    record("listed", element)
  else
    record("pending", element)
  end
end

-- Registration: `it("name", fn)`, `it "name" (fn)`, `before_each(fn)`, with busted's filters.
local hooks = {
  before_each = true, after_each = true, lazy_setup = true, lazy_teardown = true,
  strict_setup = true, strict_teardown = true,
}

local function hasTag(name, tag) return name:find("#" .. tag) ~= nil end

local function nameOf(name, parent)
  local names = { name }
  while parent and (parent.name or parent.descriptor) and parent.descriptor ~= "file" do
    insert(names, 1, parent.name or parent.descriptor)
    parent = parent.parent
  end
  return concat(names, " ")
end

local function matchesAny(text, patterns)
  for _, pattern in ipairs(patterns) do
    if text:find(pattern) then return true end
  end
  return false
end

local function admitted(descriptor, name)
  if stopped then return false end
  local isTest = descriptor == "it" or descriptor == "pending"
  if descriptor == "describe" or isTest then
    if type(name) == "string" then
      for _, tag in ipairs(options.excludeTags) do
        if hasTag(name, tag) then return false end
      end
    end
    if #options.filterOut > 0 and matchesAny(nameOf(name, current), options.filterOut) then return false end
  end
  if isTest then
    local full = nameOf(name, current)
    if #options.tags > 0 then
      local tagged = false
      for _, tag in ipairs(options.tags) do
        if hasTag(full, tag) then tagged = true end
      end
      if not tagged then return false end
    end
    if #options.filter > 0 and not matchesAny(full, options.filter) then return false end
  end
  return true
end

local noop = function() end

local function register(alias, descriptor, attributes)
  attributes = attributes or {}
  local function publisher(name, fn)
    if not fn and type(name) == "function" then
      fn, name = name, alias ~= descriptor and alias or nil
    elseif not fn then
      fn = attributes.default_fn
    end
    local trace = current.parent and placeFrom(3) or nil
    local function attach(body)
      if not admitted(descriptor, name) then return end
      if options.list and (hooks[descriptor] or descriptor == "it" or descriptor == "pending") then body = noop end
      local element = {
        descriptor = descriptor, name = name, run = body, trace = trace, attributes = attributes,
        parent = current, children = {},
      }
      if hooks[descriptor] then
        current[descriptor] = current[descriptor] or {}
        insert(current[descriptor], element)
      else
        insert(current.children, element)
      end
    end
    if fn then attach(fn) else return attach end
  end
  return publisher
end

local api = {}
local function export(alias, descriptor, attributes)
  api[alias] = register(alias, descriptor, attributes)
  suite.env[alias] = api[alias]
end
export("describe", "describe")
export("context", "describe")
export("insulate", "describe", { envmode = "insulate" })
export("expose", "describe", { envmode = "expose" })
export("it", "it")
export("spec", "it")
export("test", "it")
export("pending", "pending", { default_fn = noop })
for name in pairs(hooks) do export(name, name, { envmode = "unwrap" }) end
export("setup", "strict_setup", { envmode = "unwrap" })
export("teardown", "strict_teardown", { envmode = "unwrap" })
executors.insulate = runBlock
executors.expose = runBlock

-- A file of the project by its path relative to the project folder, named as busted names it
-- (a first line starting with '#' is skipped, as loadfile does).
-- In a program running a live test run (`flowpkg test --live`), the files come with the request:
-- options.read gives their text by path, and no file of the program's is read.
local root = options.root
local readText = options.read or function(path)
  local handle, problem = io.open(path, "rb")
  if not handle then return nil, problem end
  local text = handle:read("a")
  handle:close()
  return text
end
local function loadShown(path, shown, env)
  local text, problem = readText(path)
  if not text then return nil, "cannot open " .. shown .. ": " .. tostring(problem) end
  if text:sub(1, 1) == "#" then text = "--" .. text end
  -- an explicit nil would be the chunk's _ENV: pass an environment only when there is one
  if env then return load(text, "@" .. shown, "bt", env) end
  return load(text, "@" .. shown, "bt")
end

-- package.searchpath over the files options.read knows, when it is given.
local searchPath = package.searchpath
if options.read then
  searchPath = function(name, path)
    local tried, file = {}, (name:gsub("%.", "/"):gsub("%%", "%%%%"))
    for template in path:gmatch("[^;]+") do
      local candidate = template:gsub("%?", file)
      if readText(candidate) then return candidate end
      tried[#tried + 1] = "\n\tno file '" .. candidate .. "'"
    end
    return nil, concat(tried)
  end
end

-- Modules looked up on disk, as busted's package.path has them: `lpath` before everything
-- else (default ./src/?.lua...), the project folder (spec.helper, spec/file) after the project's
-- own modules. Relative entries are the project folder's.
local function diskSearcher(path)
  local rooted = {}
  for entry in path:gmatch("[^;]+") do
    rooted[#rooted + 1] = entry:sub(1, 1) == "/" and entry or root .. "/" .. entry:gsub("^%./", "")
  end
  rooted = concat(rooted, ";")
  return function(name)
    local file, notFound = searchPath(name, rooted)
    if not file then return "\n\t" .. notFound:gsub("^\n\t", "") end
    local shown = file:sub(1, #root + 1) == root .. "/" and "./" .. file:sub(#root + 2) or file
    local chunk, problem = loadShown(file, shown)
    if not chunk then
      error(("error loading module '%s' from file '%s':\n\t%s"):format(name, shown, problem), 2)
    end
    return chunk, shown
  end
end
insert(package.searchers, 2, diskSearcher(options.lpath))
insert(package.searchers, diskSearcher(options.localPath))
-- A live test run's modules that the program's sources lack (luassert, say), last.
if options.module then
  insert(package.searchers, function(name)
    local text, chunk = options.module(name)
    if not text then return "\n\tno module '" .. name .. "' among the test run's modules" end
    local loaded, problem = load(text, "@" .. chunk, "t")
    if not loaded then
      error(("error loading module '%s' from file '%s':\n\t%s"):format(name, chunk, problem), 2)
    end
    return loaded, chunk
  end)
end

-- --watch's require graph: every module a searcher found during this file's run, by its name and
-- by what the searcher says it came from (`./src/calc.lua` for lpath's), so a save of that file
-- reruns this spec file. Modules required by modules count too: the file runs in a fresh state.
local reached = {}
for index, searcher in ipairs(package.searchers) do
  package.searchers[index] = function(name, ...)
    local loader, extra = searcher(name, ...)
    if type(loader) == "function" then
      reached[#reached + 1] = name
      if type(extra) == "string" then reached[#reached + 1] = extra end
    end
    return loader, extra
  end
end

-- busted's own modules: assert, spy, stub, mock and match are luassert's.
local found, luassert = pcall(require, "luassert")
if not found then
  return { records = records, missing = "luassert", message = tostring(luassert) }
end
local spy, mock, stub, match = require("luassert.spy"), require("luassert.mock"), require("luassert.stub"),
  require("luassert.match")

-- A callable's function given an _ENV of its own in which `name` is `value` (busted's bindfenv).
local function bindfenv(callable, name, value)
  local mt = getmetatableRaw(callable)
  local fn = mt and mt.__call or callable
  local index = 1
  while true do
    local upname, env = getupvalue(fn, index)
    if upname == nil then return end
    if upname == "_ENV" then
      upvaluejoin(fn, index, function() return env end, 1)
      setupvalue(fn, index, setmetatable({ [name] = value }, { __index = env }))
      return
    end
    index = index + 1
  end
end

-- luassert raises with `error`; in a spec that is a failure, not an error.
bindfenv(luassert, "error", fail)
bindfenv(luassert.is_true, "error", fail)

for name, value in pairs({ assert = luassert, spy = spy, mock = mock, stub = stub, match = match }) do
  api[name] = value
  suite.env[name] = value
end

local subscribers = {}
local function channelKey(channel) return type(channel) == "table" and concat(channel, ".") or tostring(channel) end
api.subscribe = function(channel, fn)
  local key = channelKey(channel)
  subscribers[key] = subscribers[key] or {}
  insert(subscribers[key], fn)
  return { id = fn, channel = key }
end
api.unsubscribe = function(id)
  for _, list in pairs(subscribers) do
    for i = #list, 1, -1 do
      if list[i] == id or (type(id) == "table" and list[i] == id.id) then remove(list, i) end
    end
  end
end
api.publish = function(channel, ...)
  for _, fn in ipairs(subscribers[channelKey(channel)] or {}) do fn(...) end
end
api.fail = fail
api.pending = pendingNow
api.version = "2.1.1"
api.gettime = os.time
api.monotime = clock
api.sleep = function(seconds)
  local till = clock() + seconds
  while clock() < till do end
end
api.parent = function(element) return element and element.parent end
api.children = function(element) return element and element.children or {} end
api.bindfenv = bindfenv
package.loaded.busted = setmetatable({}, {
  __index = api,
  __newindex = function() error("Attempt to modify busted") end,
})

-- `arg` as busted's specs see it: the interpreter below 0, the program at 0.
G.arg = { [-1] = options.interpreter, [0] = options.file }

-- os.exit in a spec ends its file, not the run.
os.exit = function(code) error(setmetatable({ code = code == nil and true or code }, Exit), 2) end

-- The time limit: a count hook that, once past the deadline, raises in every frame that is
-- not this runner's until the runner has control again. With --coverage the C line hook of
-- flowpkg.coverage counts lines and calls the watchdog on its count events.
local coverage = options.coverage and require("flowpkg.coverage") or nil
local deadline, timedOut = clock() + options.timeout, false
local watchdog
local function everyInstructions(count)
  if coverage then coverage.setcount(count) else sethook(watchdog, "", count) end
end
watchdog = function()
  if timedOut then
    local info = getinfo(2, "S")
    if info and info.source ~= RUNNER then error(setmetatable({}, Timeout)) end
    return
  end
  if clock() > deadline then
    timedOut = true
    stopped = "timeout"
    everyInstructions(1)
    error(setmetatable({}, Timeout))
  end
end
if options.debugged then
  -- A debugger's hooks watch this file (flowpkg dap launched it): neither a time limit nor
  -- coverage of our own.
  coverage = nil
elseif coverage then
  -- the project's own modules, by the chunk names they load under (`./src/x.lua` through lpath)
  local wanted = {}
  for _, path in ipairs(options.coverageFiles or {}) do
    wanted["@" .. path], wanted["@./" .. path] = true, true
  end
  coverage.start(watchdog, 10000, wanted)
else
  sethook(watchdog, "", 10000)
end

local function finish(extra)
  local counts = coverage and coverage.stop() or nil
  if not coverage and not options.debugged then sethook() end
  local result = { records = records, randomseed = options.seed, stopped = stopped, coverage = counts,
    reached = reached }
  for k, v in pairs(extra or {}) do result[k] = v end
  return result
end

if options.helper and options.helper ~= "" then
  local helper = options.helper
  local ok, problem = pcall(function()
    if helper:match("%.lua$") then
      local chunk, problem = loadShown(helper:sub(1, 1) == "/" and helper or root .. "/" .. helper, helper)
      if not chunk then error(problem, 0) end
      chunk()
    else
      require(helper)
    end
  end)
  if not ok then
    record("error", { descriptor = "helper", name = helper }, messageOf(problem, placeFrom(1)), nil, true)
    return finish()
  end
end

local chunk, problem = loadShown(root .. "/" .. options.file, options.file, specEnv)
if not chunk then
  record("error", { descriptor = "file", name = options.file }, problem, nil, true)
  return finish({ loadError = problem })
end

local file = { descriptor = "file", name = options.file, run = chunk, attributes = { envmode = "insulate" },
  parent = suite, children = {} }
insert(suite.children, file)
safe("file", function() runBlock(file) end, file)
return finish()
