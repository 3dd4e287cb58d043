-- luacheck 412: a local of a function's body named as one of its arguments.
local function greet(name)
  print(name)
  local name = "you"
  return name
end
print(greet("me"))
