-- luacheck 211: a local never read.
local unused = 1
print("done")
