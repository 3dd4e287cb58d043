-- Lets `require` load the declared external C modules from the C path, as stock Lua's C
-- searchers do, and nothing else (HostScripts.externalModules). Arguments: the C searcher, the
-- all-in-one C searcher, the declared names (`name` or `Prefix.*`), the C path, whether sandboxed.
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
  if type(rootLoader) == "string" and rootLoader ~= "" then message = message .. "\n\t" .. rootLoader end
  return message
end
