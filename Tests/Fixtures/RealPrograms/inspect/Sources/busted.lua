-- A small stand-in for busted (flowpkg's own code, not upstream's; named busted.lua because
-- some specs `require 'busted'`), so that specs written for busted run unchanged under `flowpkg run` and under stock lua5.4 alike. It defines the globals
-- the specs use (describe, it, before_each, after_each, setup, teardown, pending, finally, and an
-- `assert` table with luassert's spellings: assert.equal, assert.are.same, assert.is_not.nil,
-- assert.has_error, ...), runs every test in the order busted would, prints one line per test
-- and a summary, and exits 1 when a test failed.
--
-- Everything it prints is deterministic: values are shown without table addresses.

local shim = {}

local root = { name = nil, children = {}, before_each = {}, after_each = {}, setup = {}, teardown = {} }
local current = root

local function add(kind, name, fn)
  table.insert(current.children, { kind = kind, name = name, fn = fn })
end

function describe(name, fn)
  local block = { kind = "describe", name = name, children = {}, before_each = {}, after_each = {},
                  setup = {}, teardown = {}, parent = current }
  table.insert(current.children, block)
  local outer = current
  current = block
  -- As busted does, an error while a describe block registers its tests fails that block
  -- alone; the other blocks still run.
  local ok, err = pcall(fn)
  current = outer
  if not ok then table.insert(block.children, { kind = "error", name = "(describe)", err = err }) end
end
context = describe

function it(name, fn) add(fn and "it" or "pending", name, fn) end
function pending(name) add("pending", name) end
function before_each(fn) table.insert(current.before_each, fn) end
function after_each(fn) table.insert(current.after_each, fn) end
function setup(fn) table.insert(current.setup, fn) end
function teardown(fn) table.insert(current.teardown, fn) end
-- finally(fn) runs fn after the test that called it, whether it passed or not.
local finalizers = {}
function finally(fn) table.insert(finalizers, fn) end
lazy_setup, lazy_teardown, strict_setup, strict_teardown = setup, teardown, setup, teardown

-- Assertions ---------------------------------------------------------------------------------

local Failure = {}
Failure.__index = Failure
Failure.__tostring = function(self) return self.message end

local function show(value)
  local kind = type(value)
  if kind == "string" then return string.format("%q", value) end
  if kind == "number" or kind == "boolean" or kind == "nil" then return tostring(value) end
  return "(" .. kind .. ")"
end

local function deepSame(a, b, seen)
  if a == b then return true end
  if type(a) ~= "table" or type(b) ~= "table" then return false end
  seen = seen or {}
  if seen[a] == b then return true end
  seen[a] = b
  for k, v in pairs(a) do
    if not deepSame(v, rawget(b, k), seen) then return false end
  end
  for k in pairs(b) do
    if rawget(a, k) == nil then return false end
  end
  return true
end

-- luassert strips the "file:line: " prefix before comparing an error's message.
local function stripPosition(message)
  if type(message) == "string" then return (message:gsub("^.-:%d+: ", "", 1)) end
  return message
end

local checks = {}
checks.equal = function(expected, actual)
  return expected == actual, "expected " .. show(expected) .. ", got " .. show(actual)
end
checks.equals = checks.equal
checks.same = function(expected, actual)
  return deepSame(expected, actual), "expected the same content as " .. show(expected) .. ", got " .. show(actual)
end
checks.truthy = function(value) return value ~= nil and value ~= false, "expected truthy, got " .. show(value) end
checks.falsy = function(value) return value == nil or value == false, "expected falsy, got " .. show(value) end
checks["true"] = function(value) return value == true, "expected true, got " .. show(value) end
checks["false"] = function(value) return value == false, "expected false, got " .. show(value) end
checks["nil"] = function(value) return value == nil, "expected nil, got " .. show(value) end
checks.error = function(fn, expected, ...)
  local ok, err = pcall(fn, ...)
  if ok then return false, "expected an error" end
  if expected ~= nil and stripPosition(err) ~= expected then
    return false, "expected error " .. show(expected) .. ", got " .. show(stripPosition(err))
  end
  return true, "expected no error, got " .. show(stripPosition(err))
end
checks.errors = checks.error
checks.error_matches = function(fn, pattern, ...)
  local ok, err = pcall(fn, ...)
  if ok then return false, "expected an error" end
  return tostring(err):find(pattern) ~= nil, "expected an error matching " .. show(pattern) .. ", got " .. show(err)
end
checks.matches = function(pattern, value)
  return type(value) == "string" and value:find(pattern) ~= nil, "expected a match for " .. show(pattern) .. " in " .. show(value)
end
checks.match = checks.matches
checks.near = function(expected, actual, tolerance)
  return math.abs(expected - actual) <= tolerance, "expected " .. show(expected) .. " +/- " .. show(tolerance) .. ", got " .. show(actual)
end
for _, kind in ipairs({ "table", "string", "number", "function", "boolean", "userdata", "thread" }) do
  checks[kind] = function(value) return type(value) == kind, "expected a " .. kind .. ", got " .. show(value) end
end

local filler = { is = true, are = true, has = true, was = true, does = true, be = true, to = true, a = true }
local negation = { ["not"] = true, no = true }

local function chain(negated)
  return setmetatable({}, {
    __index = function(_, key)
      local words, positive = {}, not negated
      for word in key:gmatch("[^_]+") do
        if negation[word] then positive = not positive
        elseif not filler[word] then table.insert(words, word) end
      end
      local name = table.concat(words, "_")
      if name == "" then return chain(not positive) end
      local check = checks[name]
      if not check then error("busted.lua: no assertion named '" .. key .. "'", 2) end
      return function(...)
        local passed, message = check(...)
        if passed ~= positive then
          local text = positive and message or ("expected the opposite: " .. message)
          error(setmetatable({ message = name .. ": " .. text }, Failure), 2)
        end
        return true
      end
    end,
    __call = function(_, value, message, ...)
      if not value then
        error(setmetatable({ message = "assert: " .. tostring(message or "assertion failed!") }, Failure), 2)
      end
      return value, message, ...
    end,
  })
end
assert = chain(false)

-- Running -------------------------------------------------------------------------------------

local counts = { ok = 0, failed = 0, pending = 0 }

local function fullName(names, name)
  local parts = {}
  for _, n in ipairs(names) do parts[#parts + 1] = n end
  parts[#parts + 1] = name
  return table.concat(parts, " ")
end

local function describeError(err)
  if getmetatable(err) == Failure then return err.message end
  return "error: " .. tostring(err)
end

local function run(block, names, befores, afters)
  for _, fn in ipairs(block.setup) do fn() end
  local myBefores, myAfters = {}, {}
  for _, fn in ipairs(befores) do myBefores[#myBefores + 1] = fn end
  for _, fn in ipairs(block.before_each) do myBefores[#myBefores + 1] = fn end
  for _, fn in ipairs(block.after_each) do myAfters[#myAfters + 1] = fn end
  for _, fn in ipairs(afters) do myAfters[#myAfters + 1] = fn end
  for _, child in ipairs(block.children) do
    if child.kind == "describe" then
      local inner = {}
      for _, n in ipairs(names) do inner[#inner + 1] = n end
      inner[#inner + 1] = child.name
      run(child, inner, myBefores, myAfters)
    elseif child.kind == "error" then
      counts.failed = counts.failed + 1
      print("FAIL " .. fullName(names, child.name) .. ": " .. describeError(child.err))
    elseif child.kind == "pending" then
      counts.pending = counts.pending + 1
      print("pending " .. fullName(names, child.name))
    else
      local ok, err = true, nil
      for _, fn in ipairs(myBefores) do
        if ok then ok, err = pcall(fn) end
      end
      if ok then ok, err = pcall(child.fn) end
      local pendingFinalizers = finalizers
      finalizers = {}
      for _, fn in ipairs(pendingFinalizers) do
        local finalOk, finalErr = pcall(fn)
        if ok and not finalOk then ok, err = false, finalErr end
      end
      for _, fn in ipairs(myAfters) do
        local afterOk, afterErr = pcall(fn)
        if ok and not afterOk then ok, err = false, afterErr end
      end
      if ok then
        counts.ok = counts.ok + 1
        print("ok " .. fullName(names, child.name))
      else
        counts.failed = counts.failed + 1
        print("FAIL " .. fullName(names, child.name) .. ": " .. describeError(err))
      end
    end
  end
  for _, fn in ipairs(block.teardown) do fn() end
end

--- Loads each spec module in `specs` (their describe blocks register tests), runs them all,
--- prints the summary and exits 1 when any test failed.
function shim.run(specs)
  for _, spec in ipairs(specs) do
    current = root
    -- As busted does, a spec file that fails to load is one failure; the others still run.
    local ok, err = pcall(require, spec)
    if not ok then table.insert(root.children, { kind = "error", name = spec, err = err }) end
  end
  run(root, {}, {}, {})
  print(string.format("%d successes / %d failures / %d pending", counts.ok, counts.failed, counts.pending))
  if counts.failed > 0 then os.exit(1) end
end

shim.describe, shim.it, shim.pending = describe, it, pending
shim.before_each, shim.after_each, shim.setup, shim.teardown = before_each, after_each, setup, teardown
shim.finally, shim.assert = finally, assert

return shim
