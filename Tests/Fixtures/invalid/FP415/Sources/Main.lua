-- luacheck 143: a field Lua 5.4's library table does not have, read.
print(string.formt("%d", 1))
