-- luacheck 241: a local table filled but never read.
local cache = {}
cache.size = 1
