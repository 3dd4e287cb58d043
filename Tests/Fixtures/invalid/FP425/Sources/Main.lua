-- luacheck 221: a local read but never given a value.
local total
print(total)
