-- Run by luarocks before its own code (LUA_INIT), written by flowpkg for one luarocks run.
-- No rock is built, nor anything of it installed, before flowpkg has read its rockspec: a rockspec
-- flowpkg has not accepted yet (no NAME-VERSION.accepted in FLOWPKG_ROCKSPECS) is copied there as
-- NAME-VERSION.rockspec and only its dependencies are processed (luarocks' own build_only_deps),
-- so one run collects every rockspec of the resolution while building nothing. flowpkg then reads
-- each through its sandbox, refuses any that is not plain Lua, and runs luarocks again.
-- A binary rock (NAME-VERSION.ARCH.rock, `.all.rock` too) holding anything but Lua modules and
-- documents (C libraries under lib/, commands under bin/) is never unpacked into the tree before
-- flowpkg has read it: one not accepted yet is copied there as NAME-VERSION.rock and this run stops,
-- for flowpkg to look inside (C libraries are refused unless the host provides them).
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

-- Whether a binary rock holds Lua modules and documents only: unpacked into a temporary folder of
-- its own (never the tree), its top level listed.
local function plain_lua(rock_file, name, version)
  local unpacked, err = require("luarocks.fetch").fetch_and_unpack_rock(rock_file, nil)
  if not unpacked then return nil, err end
  local allowed = { lua = true, doc = true, docs = true, rock_manifest = true }
  allowed[tostring(name) .. "-" .. tostring(version) .. ".rockspec"] = true
  for _, entry in ipairs(require("luarocks.fs").list_dir(unpacked)) do
    if not allowed[entry] then return false end
  end
  return true
end

local function guard_binary(install)
  local install_binary_rock = install.install_binary_rock
  install.install_binary_rock = function(rock_file, opts, ...)
    local name, version = require("luarocks.path").parse_name(rock_file)
    local base = folder .. "/" .. tostring(name) .. "-" .. tostring(version)
    if name and exists(base .. ".accepted") then return install_binary_rock(rock_file, opts, ...) end
    local plain, err = plain_lua(rock_file, name, version)
    if plain == nil then return nil, err end
    if plain then return install_binary_rock(rock_file, opts, ...) end
    local file, fetch_err = require("luarocks.fetch").fetch_url_at_temp_dir(rock_file, "flowpkg-rock-" .. tostring(name))
    if not file then return nil, fetch_err end
    copy(file, base .. ".rock")
    return nil, "flowpkg reads the binary rock " .. tostring(name) .. " " .. tostring(version) .. " before it is installed"
  end
end

local original_require = require
local guarded = {}
function require(name, ...)
  local module = original_require(name, ...)
  if not guarded[name] and type(module) == "table" then
    if name == "luarocks.build" then
      guarded[name] = true
      guard(module)
    elseif name == "luarocks.cmd.install" then
      guarded[name] = true
      guard_binary(module)
    end
  end
  return module
end
