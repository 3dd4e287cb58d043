-- The debugger's wrappers (LuaDebugHooks.installWrappers): coroutine.resume and coroutine.wrap give
-- each coroutine the debugger's hooks before it runs and note it (weakly) as known; pcall and
-- xpcall report a caught error. Returns the function listing the known suspended coroutines.
local willResume, didResume, raised = ...
local resume, create, status, xpcall0, error0 = coroutine.resume, coroutine.create, coroutine.status, xpcall, error
local pack, unpack, type, pairs = table.pack, table.unpack, type, pairs
local known = setmetatable({}, {__mode = "k"})
local function finish(...) didResume() return ... end
coroutine.create = function(f)
  local co = create(f)
  known[co] = true
  return co
end
coroutine.resume = function(co, ...)
  if type(co) == "thread" then willResume(co); known[co] = true else return resume(co, ...) end
  return finish(resume(co, ...))
end
coroutine.wrap = function(f)
  local co = create(f)
  known[co] = true
  return function(...)
    willResume(co)
    local r = pack(resume(co, ...))
    didResume()
    if r[1] then return unpack(r, 2, r.n) end
    if type(r[2]) == "string" then error0(r[2], 2) end
    error0(r[2], 0)
  end
end
local function report(e) raised(e) return e end
pcall = function(f, ...) return xpcall0(f, report, ...) end
xpcall = function(f, handler, ...)
  return xpcall0(f, function(e) raised(e) return handler(e) end, ...)
end
return function()
  local list = {}
  for co in pairs(known) do
    if status(co) == "suspended" then list[#list + 1] = co end
  end
  return list
end
