-- luacheck 321: a local read before any value can reach it.
local size
print(size)
size = 2
print(size)
