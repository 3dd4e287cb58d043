-- luacheck 581: a negation that can be simplified.
local count = #arg
print(not (count == 1))
