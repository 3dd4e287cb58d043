-- flowpkg test's spec file names matched against busted's Lua patterns (`pattern`,
-- `exclude-pattern`), in a bounded state (BustedConfiguration.matching, Swift).
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
