-- luacheck 582: `not` binds tighter than comparison.
local count = #arg
print(not count == 1)
