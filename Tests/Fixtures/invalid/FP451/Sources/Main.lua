-- luacheck 511: code after a return never runs.
local function first(list)
  do return list[1] end
  print("never")
end
print(first({ 1 }))
