-- luacheck 232: an argument set again but never read.
local function reset(value)
  value = 0
end
reset(1)
