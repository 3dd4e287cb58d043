-- flowpkg test's file names matched against Lua patterns in a bounded state: spec files against
-- busted's `pattern` and `exclude-pattern` (BustedConfiguration.matching, Swift), and modules
-- against `.luacov`'s include and exclude (LuacovConfiguration.includes).
local mode = ...

if mode == "match" then
  -- Which names busted takes: a pattern found in the name, and no exclusion found in it.
  local _, names, patterns, excludes = ...
  local taken = {}
  for index, name in ipairs(names) do
    local keep = #patterns == 0
    for _, pattern in ipairs(patterns) do
      if name:find(pattern) then keep = true break end
    end
    for _, pattern in ipairs(excludes) do
      if pattern ~= "" and name:find(pattern) then keep = false break end
    end
    taken[index] = keep
  end
  return taken
end

if mode == "luacov" then
  -- luacov's runner.file_included: the name with "/" separators and without ".lua", kept when
  -- an include pattern matches it (or there is none) and no exclude pattern does.
  local _, names, includes, excludes = ...
  local function any(patterns, name, empty)
    if #patterns == 0 then return empty end
    for _, pattern in ipairs(patterns) do
      if name:match(pattern) then return true end
    end
    return false
  end
  local taken = {}
  for index, name in ipairs(names) do
    local bare = name:gsub("\\", "/"):gsub("%.lua$", "")
    taken[index] = any(includes, bare, true) and not any(excludes, bare, false)
  end
  return taken
end
