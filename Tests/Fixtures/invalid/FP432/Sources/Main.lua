-- luacheck 312: an argument's value replaced before any read.
local function scaled(factor)
  factor = 2
  return factor
end
print(scaled(1))
