-- luacheck 411: a local declared again in the same scope.
local name = "a"
print(name)
local name = "b"
print(name)
