-- luacheck 311: a value no read sees.
local width = 1
width = 2
print(width)
