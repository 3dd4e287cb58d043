-- luacheck 532: fewer values than targets, the last not a call.
local first, second
first, second = 1
print(first, second)
