-- A module the start module requires: editing it re-runs main under live development.
local words = {}

function words.banner(name)
  return "== " .. name .. " runs Lua from its bundle =="
end

words.count = 3

return words
