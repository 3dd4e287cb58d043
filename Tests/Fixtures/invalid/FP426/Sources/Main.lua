-- luacheck 231: a local set but never read.
local count
count = 1
