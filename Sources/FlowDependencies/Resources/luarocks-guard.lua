-- Run by luarocks before its own code (LUA_INIT), written by flowpkg for one luarocks run.
-- No rock is built, nor anything of it installed, before flowpkg has read its rockspec: a rockspec
-- flowpkg has not accepted yet (no NAME-VERSION.accepted in FLOWPKG_ROCKSPECS) is copied there as
-- NAME-VERSION.rockspec and only its dependencies are processed (luarocks' own build_only_deps),
-- so one run collects every rockspec of the resolution while building nothing. flowpkg then reads
-- each through its sandbox, refuses any that is not plain Lua, and runs luarocks again.
local folder = os.getenv("FLOWPKG_ROCKSPECS")
if not folder or folder == "" then return end

local function exists(file)
  local handle = io.open(file, "rb")
  if handle then handle:close() end
  return handle ~= nil
end

local function copy(from, to)
  local source = assert(io.open(from, "rb"))
  local text = source:read("*a")
  source:close()
  local target = assert(io.open(to, "wb"))
  target:write(text)
  target:close()
end

local function guard(build)
  local build_rockspec = build.build_rockspec
  build.build_rockspec = function(rockspec, opts, ...)
    if opts.build_only_deps then return build_rockspec(rockspec, opts, ...) end
    local base = folder .. "/" .. tostring(rockspec.name) .. "-" .. tostring(rockspec.version)
    if exists(base .. ".accepted") then return build_rockspec(rockspec, opts, ...) end
    copy(rockspec.local_abs_filename, base .. ".rockspec")
    local only_deps = setmetatable({}, getmetatable(opts))
    for key, value in pairs(opts) do only_deps[key] = value end
    only_deps.build_only_deps = true
    return build_rockspec(rockspec, only_deps, ...)
  end
end

local original_require = require
local guarded = false
function require(name, ...)
  local module = original_require(name, ...)
  if name == "luarocks.build" and not guarded and type(module) == "table" then
    guarded = true
    guard(module)
  end
  return module
end
