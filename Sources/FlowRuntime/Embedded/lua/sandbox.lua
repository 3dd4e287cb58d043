-- A sandboxed context's allow-list, run once as the context starts (HostScripts.sandbox).
-- Arguments: `allowed` (a set of global names and `library.field` entries), `binary` (whether
-- `load` may take bytecode).
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
