-- luacheck 531: more values than targets.
local first = 1, 2
print(first)
