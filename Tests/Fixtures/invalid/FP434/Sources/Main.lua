-- luacheck 314: a table constructor setting one key twice.
local point = { x = 1, x = 2 }
print(point.x)
