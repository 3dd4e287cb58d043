-- LuaSandbox's driver: runs a project's Lua file (`...`: source, name, work limit, autovivified and
-- preset table names) within its budget and returns its globals and first returned value, copied,
-- or nil and a message.
local source, name, worklimit, autovivified, preset = ...
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
-- The environment: what the file reads comes from `base`; what it sets stays in `env`,
-- except the special tables, kept in `special` (luacheck's `files` and `stds`).
local base = {}
for _, key in ipairs({ "assert", "error", "ipairs", "next", "pairs", "pcall", "rawequal", "rawget",
    "rawlen", "rawset", "select", "tonumber", "tostring", "type", "_VERSION" }) do
  base[key] = _G[key]
end
-- The message handler runs after the error unwound, under the budget: Lua would run it
-- where the error was raised, which for the budget's own error is inside the hook, unhooked.
base.xpcall = function(f, handler, ...)
  local results = pack(pcall(f, ...))
  if results[1] then return unpack(results, 1, results.n) end
  local ok, value = pcall(handler, results[2])
  return false, value
end
for _, library in ipairs({ "string", "table", "math", "utf8" }) do
  local copy = {}
  for key, value in pairs(_G[library]) do copy[key] = value end
  base[library] = copy
end
base.unpack = table.unpack
-- Reads go straight to `base` (a table, not a function: no instructions spent on each
-- global read), where the special tables and `_G` live too; a new global lands in `env`.
local special, specialmt = {}, {}
local vivify = { __index = function(t, key) local v = {}; rawset(t, key, v); return v end }
for _, key in ipairs(autovivified) do specialmt[key] = vivify; special[key] = setmetatable({}, vivify) end
for _, key in ipairs(preset) do specialmt[key] = false; special[key] = {} end
for key, value in next, special do base[key] = value end
local env = {}
base._G = env
setmetatable(env, {
  __index = base,
  __newindex = function(t, key, value)
    if specialmt[key] ~= nil then
      if specialmt[key] and type(value) == "table" and getmetatable(value) == nil then
        setmetatable(value, specialmt[key])
      end
      special[key] = value
      base[key] = value
    else
      rawset(t, key, value)
    end
  end,
})
local chunk, problem = load(source, "@" .. name, "t", env)
if chunk == nil then return nil, problem end
-- Plain values out: strings, numbers, booleans and tables of them, raw (no metamethod
-- runs), copied under the budget so a table that holds itself costs what it costs.
local function copy(value, depth)
  local kind = type(value)
  if kind == "string" or kind == "number" or kind == "boolean" then return value end
  if kind ~= "table" then return nil end
  if depth > 32 then error(name .. ": tables nest deeper than 32 levels", 0) end
  local out = {}
  for key, entry in next, value do
    local keykind = type(key)
    if keykind == "string" or keykind == "number" then out[key] = copy(entry, depth + 1) end
  end
  return out
end
-- past a bound, every instruction fails, so no pcall in the file can go on looping
budget_start()
local ok, failure = pcall(chunk)
if budget_stop() then return nil, "past its budget" end
if not ok then return nil, tostring(failure) end
budget_start()
local copied, globals, returned = pcall(function()
  local globals = copy(env, 0)
  for key, value in next, special do globals[key] = copy(value, 1) end
  return globals, copy(failure, 0)
end)
if budget_stop() then return nil, "past its budget" end
if not copied then return nil, tostring(globals) end
return globals, returned
